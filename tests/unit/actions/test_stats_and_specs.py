"""set_stats and validate_argument_spec, run as a task runs their actions (no host, no session)."""

from __future__ import annotations

import asyncio
from typing import Any

from runner.actions import ACTIONS, ActionContext, run_action
from runner.module_index import ModuleIndex
from runner.templating import Templar
from tests.unit.actions.test_registry import RecordedRunState

INDEX = ModuleIndex()
SPEC = {"port": {"type": "int", "required": True}, "mode": {"type": "str", "choices": ["primary", "replica"]}}


def act(module: str, args: dict[str, Any], task_vars: dict[str, Any] | None = None) -> dict[str, Any]:
    ctx = ActionContext(host="web1", module=INDEX.get(module), args=args, state=RecordedRunState(),
                        templar=Templar(task_vars or {}), task_vars=task_vars or {})
    return asyncio.run(run_action(ACTIONS[module], ctx))


def test_set_stats_returns_the_stats_with_ansibles_defaults() -> None:
    result = act("set_stats", {"data": {"deployed": 3}})
    assert result == {"changed": False, "ansible_stats": {"data": {"deployed": 3}, "per_host": False,
                                                          "aggregate": True}}
    assert act("set_stats", {"data": {"x": 1}, "per_host": "yes"})["ansible_stats"]["per_host"] is True
    # As in Ansible, a value that is not a true word is false rather than an error.
    assert act("set_stats", {"data": {"x": 1}, "aggregate": "x"})["ansible_stats"]["aggregate"] is False


def test_set_stats_refuses_data_that_is_not_a_mapping_or_a_bad_name() -> None:
    assert act("set_stats", {"data": [1]})["msg"] == "The 'data' option needs to be a dictionary/hash"
    assert "Invalid variable name" in act("set_stats", {"data": {"not valid": 1}})["msg"]


def test_validate_argument_spec_reads_the_task_variables_and_the_given_arguments() -> None:
    passed = act("validate_argument_spec", {"argument_spec": SPEC}, {"port": "8080"})
    assert passed == {"validate_args_context": {}, "changed": False, "msg": "The arg spec validation passed"}
    failed = act("validate_argument_spec", {"argument_spec": SPEC, "provided_arguments": {"mode": "other"}},
                 {"port": 80})
    assert failed["failed"] is True and failed["argument_spec_data"] == SPEC
    assert failed["msg"].startswith("Validation of arguments failed:\n") and "mode" in failed["argument_errors"][0]


def test_validate_argument_spec_names_a_missing_required_argument() -> None:
    failed = act("validate_argument_spec", {"argument_spec": SPEC, "validate_args_context": {"name": "db"}})
    assert failed["argument_errors"] == ["missing required arguments: port"]
    assert failed["validate_args_context"] == {"name": "db"}
