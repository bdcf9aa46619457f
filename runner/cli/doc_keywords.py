"""``provisioning-doc -t keyword``: the playbook keywords as ansible-doc documents them.

The descriptions are ansible-core's (its ``keyword_desc.yml``); what each keyword applies to (plays, roles, blocks,
tasks, handlers), its type, how it is templated and its priority come from ansible-core's playbook classes, read as
ansible-doc reads them. Both need the installed ansible-core (the ``ansible`` extra).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from typing import Any

import yaml

from runner.ansible_api.core import ansible_core_dir

PLAYBOOK_OBJECTS = ("Play", "Role", "Block", "Task", "Handler")


def keyword_descriptions() -> dict[str, Any]:
    """Every keyword with its description."""
    path = ansible_core_dir("the keywords' documentation") / "keyword_desc.yml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else {}


def _attributes(keyword: str) -> dict[str, Any]:
    """applies_to, type, template, alias and priority of a keyword (empty for a private one)."""
    found: dict[str, Any] = {"applies_to": []}
    for name in PLAYBOOK_OBJECTS:
        cls = getattr(importlib.import_module(f"ansible.playbook.{name.lower()}"), name)
        attribute = cls.fattributes.get(keyword)
        if attribute is None:
            continue
        found["applies_to"].append(name)
        if "type" in found:
            continue
        if getattr(attribute, "private", False):
            raise KeyError(keyword)
        found["type"] = getattr(attribute, "isa", "string")
        if keyword.endswith("when") or keyword == "until":
            found["template"] = "implicit"
        elif getattr(attribute, "static", False):
            found["template"] = "static"
        else:
            found["template"] = "explicit"
        for visible in ("alias", "priority"):
            found[visible] = getattr(attribute, visible, None)
    return found


def keyword_docs(keys: Iterable[str], warn: Callable[[str], None]) -> dict[str, dict[str, Any]]:
    """The documentation of each keyword named; an unknown or private one is skipped with a warning."""
    descriptions = keyword_descriptions()
    docs: dict[str, dict[str, Any]] = {}
    for key in keys:
        # a loop over any lookup (with_items, with_fileglob ...) is documented as loop; async is async_val inside
        keyword = "loop" if key.startswith("with_") else "async_val" if key == "async" else key
        try:
            data = {"description": descriptions[key], **_attributes(keyword)}
        except KeyError as missing:
            warn(f"Skipping invalid keyword {key!r}: {missing}")
            continue
        docs[key] = {name: value for name, value in data.items() if value is not None}
    return docs
