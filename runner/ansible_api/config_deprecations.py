"""ansible-core's deprecated configuration entries, reported as ansible-core reports them when a run starts.

ansible-core's own settings are defined in its ``config/base.yml`` (GPLv3, the user's install: read, never
copied). A definition, or one of its sources (an environment variable, an ``[section]key`` of ansible.cfg), may be
``deprecated``: ansible-core then warns when a run starts, for each definition set through a deprecated source
(named by the source: ``ANSIBLE_TEST_ENTRY_D``, ``[testing]deprecated``) and for each deprecated definition set at
all (named by the definition: ``_Z_TEST_ENTRY_2``), in the words of ``_report_config_warnings``. Without
ansible-core installed there are none (its settings are then only names this runner does not know).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from functools import cache
from typing import Any

import yaml

from runner.ansible_api.core import installed_ansible_core
from runner.ansible_api.deprecations import deprecation_entry, deprecation_message

ANSIBLE_CORE = {"resolved_name": "ansible.builtin", "type": None}


@cache
def core_definitions() -> dict[str, Any]:
    """ansible-core's configuration definitions (its ``base.yml``) that deprecate something, by setting name;
    empty without ansible-core. Only their top-level blocks are parsed (the whole file costs a command's start
    tens of milliseconds); the whole file when those alone do not parse (an alias to another block)."""
    found = installed_ansible_core()
    if found is None or not (found / "config" / "base.yml").is_file():
        return {}
    text = (found / "config" / "base.yml").read_text(encoding="utf-8")
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    chosen = "".join(block for block in _TOP_LEVEL.split(text) if "deprecated:" in block)
    try:
        data = yaml.load(chosen, Loader=loader)
    except yaml.YAMLError:
        data = yaml.load(text, Loader=loader)
    return data if isinstance(data, dict) else {}


# Where a top-level definition starts (``NAME:`` at the start of a line), to split the file into them
_TOP_LEVEL = re.compile(r"^(?=[A-Za-z_][^\n]*:[ \t]*$)", re.M)


def config_deprecations(
    ini_keys: Collection[tuple[str, str]], env: Mapping[str, str], definitions: Mapping[str, Any] | None = None
) -> list[str]:
    """The ``[DEPRECATION WARNING]`` texts ansible-core gives at start for the ansible.cfg keys ``ini_keys``
    (``(section, key)`` pairs) and the environment ``env``, in its order: each definition's deprecated sources
    that are set, then the definition itself when it is deprecated and set."""
    messages: list[str] = []
    for name, definition in (core_definitions() if definitions is None else definitions).items():
        if not isinstance(definition, dict):
            continue
        found: list[tuple[str, dict[str, Any]]] = []
        for entry in definition.get("env") or []:
            if isinstance(entry, dict) and entry.get("name") in env:
                found.append((str(entry["name"]), entry))
        for entry in definition.get("ini") or []:
            if isinstance(entry, dict) and (str(entry.get("section", "defaults")), str(entry.get("key"))) in ini_keys:
                found.append((f"[{entry.get('section', 'defaults')}]{entry.get('key')}", entry))
        for source, entry in found:
            if isinstance(entry.get("deprecated"), dict):
                messages.append(_message(source, entry["deprecated"]))
        if found and isinstance(definition.get("deprecated"), dict):
            messages.append(_message(name, definition["deprecated"]))
    return messages


def deprecation_details(deprecated: Mapping[str, Any], *, include_removal: bool = False,
                        collection_name: str | None = None) -> str:
    """ansible-core's ``get_deprecated_msg_from_config``: the reason, with ``include_removal`` when it goes (as
    ansible-doc shows it), and the alternatives; lines after the first start with a tab."""
    removal = ""
    if include_removal:
        if "removed_at_date" in deprecated:
            removal = f"Will be removed in a release after {deprecated['removed_at_date']}\n\t"
        elif collection_name:
            removal = f"Will be removed in: {collection_name} {deprecated.get('removed_in')}\n\t"
        else:
            removal = f"Will be removed in: Ansible {deprecated.get('removed_in')}\n\t"
    alternatives = deprecated.get("alternatives", deprecated.get("alternative", "none"))
    return f"Reason: {deprecated.get('why')}\n\t{removal}Alternatives: {alternatives}"


def _message(name: str, deprecated: dict[str, Any]) -> str:
    """What ansible-core's ``_report_config_warnings`` says: ``NAME option.``, the details, the removal sentence."""
    text = f"{name} option. {deprecation_details(deprecated).replace(chr(9), '')}"
    version = deprecated.get("version")
    return deprecation_message(deprecation_entry(text, version=str(version) if version else None,
                                                 deprecator=ANSIBLE_CORE))
