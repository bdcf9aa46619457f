"""``set_stats`` and ``validate_argument_spec``: actions on the run's own data, as Ansible's action plugins."""

from __future__ import annotations

import keyword
from collections.abc import Mapping
from typing import Any

from modules._utils import ArgumentError, validate_arguments
from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext


async def run_set_stats(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    data = params["data"]
    if not isinstance(data, Mapping):
        return {"failed": True, "changed": False, "msg": "The 'data' option needs to be a dictionary/hash"}
    for name in data:
        if not isinstance(name, str) or not name.isidentifier() or keyword.iskeyword(name):
            return {"failed": True, "changed": False, "msg": f"Invalid variable name in 'data': {name!r}"}
    stats = {"data": dict(data), "per_host": params["per_host"], "aggregate": params["aggregate"]}
    return {"changed": False, "ansible_stats": stats}


async def run_validate_argument_spec(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    spec = params["argument_spec"]
    # The task's variables of the spec's names, then what the task gives explicitly (which wins).
    supplied = {**{name: ctx.task_vars[name] for name in spec if name in ctx.task_vars},
                **(params["provided_arguments"] or {})}
    result: dict[str, Any] = {"validate_args_context": params["validate_args_context"]}
    try:
        validate_arguments(spec, supplied)
    except ArgumentError as exc:
        return {**result, "failed": True, "changed": False, "argument_spec_data": spec,
                "argument_errors": [str(exc)], "msg": f"Validation of arguments failed:\n{exc}"}
    return {**result, "changed": False, "msg": "The arg spec validation passed"}
