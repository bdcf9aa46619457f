"""What a task reports of interpreter discovery, as ansible-core 2.21 reports it: the ``discovered_interpreter_python``
fact, and the warnings (and ``auto_legacy``'s deprecation) of the discovery mode the task's
``ansible_python_interpreter`` (else the configuration's ``interpreter_python``) names.

The discovery itself is done by the agent's start command (``runner.agent.start_command``), in the round trip
that starts the agent; what it found is reported again by each task that runs while the host's facts do not hold
it (the first one, and the first after a ``meta: clear_facts``), as ansible-core discovers again then.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from runner.agent import DISCOVERY_ERROR, DISCOVERY_NONE
from runner.ansible_api.legacy import interpreter_line
from runner.config.values import DISCOVER_INTERPRETER
from runner.connection.session import Discovery
from runner.templating import Templar
from runner.templating.deprecations import deprecate
from runner.templating.omit import OMIT

DISCOVERED_PYTHON = "discovered_interpreter_python"
INTERPRETER_VARIABLES = ("ansible_python_interpreter", "provisioning_python_interpreter")
_DOCS = "https://docs.ansible.com/ansible-core/2.21/reference_appendices/interpreter_discovery.html"
_UNEXPECTED = "unexpected output from Python interpreter discovery"


@dataclass
class DiscoveryReport:
    """The warnings a discovery gives a task's result, and the longer text each is shown with."""

    warnings: list[str] = field(default_factory=list)
    shown: dict[str, str] = field(default_factory=dict)

    def warn(self, text: str, shown: str | None = None) -> None:
        self.warnings.append(text)
        if shown is not None:
            self.shown[text] = shown


def shebang_interpreter(source: bytes, task_vars: Mapping[str, Any], templar: Templar | None) -> str | None:
    """The interpreter a task's ``ansible_<name>_interpreter`` gives a module whose ``#!`` line names ``<name>``
    (not Python, which runs on the agent's), rendered, as ansible-core rewrites the line; None when the task has
    none, or it renders to nothing or is omitted (the line's own program then runs)."""
    line = interpreter_line(source)
    if not line:
        return None
    program = os.path.basename(line[0])  # ansible-core's name for the variable: ``env`` for /usr/bin/env
    name = f"ansible_{program}_interpreter"
    if program == "python" or name not in task_vars:
        return None
    value = task_vars[name]
    if templar is not None:
        value = templar.template(value)
    if value is None or value == OMIT:
        return None
    return str(value).strip() or None


def with_omitted_interpreter(values: Mapping[str, Any]) -> Mapping[str, Any]:
    """Rendered connection variables, an interpreter variable rendered to ``omit`` made ``auto``: the setting's
    default, not the configuration's value, as ansible-core renders it (``value_for_omit``)."""
    if not any(values.get(name) == OMIT for name in INTERPRETER_VARIABLES):
        return values
    return {key: "auto" if key in INTERPRETER_VARIABLES and value == OMIT else value for key, value in values.items()}


def discovery_mode(task_vars: Mapping[str, Any], templar: Templar | None, default: str) -> str:
    """The discovery mode (``auto``, ``auto_silent``, ``auto_legacy``, ``auto_legacy_silent``) the task's
    interpreter variable names, rendered; ``default`` (the configuration's) when the task has none. An empty or
    omitted value is ``auto``, as ansible-core reads it."""
    for name in INTERPRETER_VARIABLES:
        if name in task_vars:
            value = task_vars[name]
            if templar is not None:
                value = templar.template(value)
            text = "" if value is None else str(value).strip()
            return text if text in DISCOVER_INTERPRETER else "auto"
    return default if default in DISCOVER_INTERPRETER else "auto"


def report_discovery(discovery: Discovery, mode: str, host: str) -> DiscoveryReport:
    """What ansible-core's ``discover_interpreter`` says of ``discovery`` on ``host`` in ``mode``: no warning
    when the mode is silent; ``auto_legacy``'s deprecation whatever it is."""
    report = DiscoveryReport()
    if mode.startswith("auto_legacy"):
        deprecate(f"The '{mode}' option for 'INTERPRETER_PYTHON' now has the same effect as 'auto'.", "2.21")
    if mode.endswith("_silent"):
        return report
    if discovery.outcome == DISCOVERY_NONE:
        report.warn(f"No python interpreters found for host {host!r} (tried {list(discovery.tried)!r}).")
        return report
    if discovery.outcome == DISCOVERY_ERROR:
        summary = f"Unhandled error in Python interpreter discovery for host {host!r}"
        report.warn(
            f"{summary}: {_UNEXPECTED}",
            f"{summary}: {_UNEXPECTED}\n\n{summary}.\n\n<<< caused by >>>\n\n{_UNEXPECTED}\n",
        )
    using = (
        f"Host {host!r} is using the discovered Python interpreter at {discovery.interpreter!r}, but future "
        "installation of another Python interpreter could cause a different interpreter to be discovered."
    )
    report.warn(using, f"{using} See {_DOCS} for more information.")
    return report
