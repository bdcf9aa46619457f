"""Math filters Ansible adds to Jinja2's: ``log``, ``pow`` and ``root``."""

from __future__ import annotations

import math
from typing import Any

from runner.templating.errors import TemplateError


def logarithm(value: Any, base: float = math.e) -> float:
    """The natural logarithm, or the one in ``base`` (``100 | log(10)`` is 2.0)."""
    try:
        return math.log10(value) if base == 10 else math.log(value, base)
    except (TypeError, ValueError) as exc:
        raise TemplateError(f"log() can only be used on numbers: {exc}") from None


def power(value: Any, exponent: Any) -> float:
    try:
        return math.pow(value, exponent)
    except (TypeError, ValueError) as exc:
        raise TemplateError(f"pow() can only be used on numbers: {exc}") from None


def root(value: Any, base: float = 2) -> float:
    """The square root, or the ``base``-th root."""
    try:
        return math.sqrt(value) if base == 2 else math.pow(value, 1.0 / float(base))
    except (TypeError, ValueError) as exc:
        raise TemplateError(f"root() can only be used on numbers: {exc}") from None


FILTERS = {"log": logarithm, "pow": power, "root": root}
