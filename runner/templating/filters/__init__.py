"""Ansible's filters, by name, beside Jinja2's own (``map``, ``select``, ``join``, ``indent``...)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runner.templating.filters import core, data, dates, encoding, numbers, paths, structures, text, urls, vault


def builtin_filters() -> dict[str, Callable[..., Any]]:
    merged: dict[str, Callable[..., Any]] = {}
    for module in (core, data, dates, encoding, numbers, paths, structures, text, urls, vault):
        merged.update(module.FILTERS)
    return merged
