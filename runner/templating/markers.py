"""What makes text a template: Jinja2's markers, in text not marked unsafe."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.util.unsafe import UNSAFE_TYPES

TEMPLATE_MARKERS = ("{{", "{%", "{#")


def is_template(value: Any) -> bool:
    """True for a string that Jinja2 would change; everything else (unsafe text too: ``!unsafe``, a host's data)
    is returned as is, without Jinja2."""
    return (isinstance(value, str) and not isinstance(value, UNSAFE_TYPES) and "{" in value
            and any(marker in value for marker in TEMPLATE_MARKERS))


def literal_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each one that is still a template set to None: what it renders to (``omit``, None, a
    value) is not known before the run, so a check made before it (two arguments given that exclude each other)
    counts only the values written as they are."""
    return {key: None if is_template(value) else value for key, value in values.items()}
