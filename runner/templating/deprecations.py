"""Deprecated forms the templar meets, as ansible-core 2.19 reports them: entries of a task result's
``deprecations``, printed as ``[DEPRECATION WARNING]`` lines while ``deprecation_warnings`` (or the variable
``ansible_deprecation_warnings``) is on."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CONDITIONAL_AS_TEMPLATE = "Conditionals should not be surrounded by templating delimiters such as {{ }} or {% %}."


def deprecation(message: str, version: str) -> dict[str, Any]:
    """A result's deprecation entry, with ansible-core's keys (playbooks read ``msg``)."""
    return {"msg": message, "version": version, "collection_name": "ansible.builtin",
            "deprecator": {"resolved_name": "ansible.builtin", "type": None}}


def deprecation_text(entry: Mapping[str, Any]) -> str:
    """The line ansible-core prints for an entry, after ``[DEPRECATION WARNING]: ``."""
    version = entry.get("version")
    removal = f" This feature will be removed from ansible-core version {version}." if version else ""
    return f"{entry.get('msg', '')}{removal}"
