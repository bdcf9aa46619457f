"""What makes text a template: Jinja2's markers, in text not marked unsafe."""

from __future__ import annotations

from typing import Any

from runner.util.unsafe import UNSAFE_TYPES

TEMPLATE_MARKERS = ("{{", "{%", "{#")


def is_template(value: Any) -> bool:
    """True for a string that Jinja2 would change; everything else (unsafe text too: ``!unsafe``, a host's data)
    is returned as is, without Jinja2."""
    return (isinstance(value, str) and not isinstance(value, UNSAFE_TYPES) and "{" in value
            and any(marker in value for marker in TEMPLATE_MARKERS))
