"""Parsing of text that is not YAML: free-form ``k=v`` module arguments."""

from runner.parsing.kv import parse_adhoc_args, parse_kv, split_args

__all__ = ["parse_adhoc_args", "parse_kv", "split_args"]
