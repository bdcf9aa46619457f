"""A remote debugger for the modules a task runs: ansible-core's ``_ansible_ansiballz_pydevd_config`` variable
(its AnsiballZ extension for pydevd and PyCharm), read per task and handed to the agent, which imports the
debugger's module and calls its ``settrace`` before the module runs (``attach_debugger`` in
``runner/agent/remote.py``). A debugger module missing on the host fails the module in ansible-core's words."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from runner.errors import UserError
from runner.templating import Templar

DEBUGGER_VARIABLE = "_ansible_ansiballz_pydevd_config"
# pydevd's options as ansible-core takes them: the module to import, its settrace's arguments, source paths
_OPTIONS = ("module", "settrace", "source_mapping")


def module_debugger(templar: Templar, variables: Mapping[str, Any]) -> dict[str, Any] | None:
    """The debugger options the task's variables set (a mapping, or JSON text of one), None without any."""
    value = variables.get(DEBUGGER_VARIABLE)
    if value is None:
        return None
    value = templar.template(value)
    if isinstance(value, str):
        try:
            value = json.loads(value) if value.strip() else None
        except ValueError:
            raise UserError(f"{DEBUGGER_VARIABLE} must be a mapping (or JSON of one), got {value!r}") from None
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise UserError(f"{DEBUGGER_VARIABLE} must be a mapping (or JSON of one), got {type(value).__name__}")
    unknown = sorted(str(key) for key in value if key not in _OPTIONS)
    if unknown:
        raise UserError(f"{DEBUGGER_VARIABLE} has unknown options {', '.join(unknown)} "
                        f"(expected: {', '.join(_OPTIONS)})")
    for key in ("settrace", "source_mapping"):
        if value.get(key) is not None and not isinstance(value[key], Mapping):
            raise UserError(f"{DEBUGGER_VARIABLE}: {key} must be a mapping")
    return {key: value[key] for key in _OPTIONS if value.get(key) is not None}
