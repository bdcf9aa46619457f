"""A task whose module is named by a template of the run's variables (``action: {module: "{{ m }}"}`` after a
``set_fact: {m: ping}``): each host's name, and its arguments read for that module, where the task runs."""

from __future__ import annotations

from typing import Any

from runner.executor.keywords import TaskFailure
from runner.models.action import SPECIAL_ACTIONS
from runner.module_index import ModuleIndex
from runner.plan import PlanTask
from runner.plan.module_args import module_arguments
from runner.templating import Templar


def run_time_module(index: ModuleIndex, templar: Templar, node: PlanTask) -> tuple[str, dict[str, Any]]:
    """(module, arguments as written) of ``node`` for the host ``templar`` renders for. A TemplateError, a
    TaskFailure or a UserError (an unknown module, bad k=v text) fails the task on this host."""
    written = node.written_args or {}
    name = templar.template(node.module)
    if not isinstance(name, str) or not name.strip():
        raise TaskFailure(f"the module name '{node.module}' rendered to {name!r}, not a module's name")
    short = index.canonical(name.strip())
    if short in SPECIAL_ACTIONS:
        raise TaskFailure(f"'{short}' cannot be named by a template ('{node.module}'); write it as the task's key")
    info = index.find(short)
    if info is None:  # ansible-core's words, which playbooks match on
        raise TaskFailure(f"Cannot resolve '{name.strip()}' to an action or module.")
    return info.name, module_arguments(written.get("module_args"), written.get("args"), info.free_form)
