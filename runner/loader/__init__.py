"""Reading YAML (and INI) files into data that remembers where each value came from."""

from runner.loader.yaml import load_yaml_file, load_yaml_text
from runner.positions import position_of

__all__ = ["load_yaml_file", "load_yaml_text", "position_of"]
