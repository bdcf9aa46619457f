"""``host_pattern_mismatch``: what a play's or an ad-hoc command's pattern term that matches nothing does, as in
Ansible: ``warning`` says so for each such term, ``error`` stops the run before anything runs on the pattern's
hosts, ``ignore`` says nothing."""

from __future__ import annotations

from collections.abc import Callable

from runner.errors import UserError
from runner.inventory.inventory import Inventory


def check_pattern(inventory: Inventory, pattern: str | list[str], mode: str, warn: Callable[[str], None]) -> None:
    """Warn about, or raise a UserError for, each term of ``pattern`` that matches nothing, as ``mode`` says."""
    if mode == "ignore":
        return
    for term in inventory.unmatched_terms(pattern):
        message = f"Could not match supplied host pattern, ignoring: {term}"
        if mode == "error":
            raise UserError(message, hint="fix the pattern, or set host_pattern_mismatch to warning")
        warn(message)
