"""``omit``: a placeholder that, as an argument's templated value, removes the argument.

``mode: "{{ file_mode | default(omit) }}"`` passes no ``mode`` at all when ``file_mode`` is undefined. The
placeholder is random per controller run, so no real value can collide with it; worker processes are forked
from the controller and share it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

OMIT = "__omit_place_holder__" + secrets.token_hex(20)


def drop_omitted(args: Any, omit: str = OMIT) -> Any:
    """``args`` without the mapping entries and list items whose (templated) value is the placeholder."""
    if isinstance(args, Mapping):
        return {key: drop_omitted(value, omit) for key, value in args.items() if value != omit}
    if isinstance(args, list):
        return [drop_omitted(item, omit) for item in args if item != omit]
    return args
