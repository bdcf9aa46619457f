"""``hash_behaviour = merge``: how Ansible combines a mapping variable set at several levels (its merge_hash):
mappings are merged recursively, the higher level's keys winning; anything else replaces what is below."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def merge_values(lower: Any, higher: Any) -> Any:
    """``higher`` over ``lower``: both mappings are merged key by key, recursively; otherwise ``higher``."""
    if not (isinstance(lower, Mapping) and isinstance(higher, Mapping)):
        return higher
    merged = dict(lower)
    for key, value in higher.items():
        merged[key] = merge_values(merged[key], value) if key in merged else value
    return merged


def merge_into(target: dict[str, Any], values: Mapping[str, Any], merge: bool) -> None:
    """``target.update(values)``, or with ``merge`` each mapping merged into what ``target`` holds."""
    if not merge:
        target.update(values)
        return
    for key, value in values.items():
        target[key] = merge_values(target[key], value) if key in target else value
