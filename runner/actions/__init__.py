"""Controller-side actions: the one registry of modules whose work happens on the controller.

A module file marks itself with ``ACTION = "<name>"`` (its documentation and argument spec stay in the module
file, so ``provisioning-doc`` and the compiler treat it like any module); ``ACTIONS[name]`` is what runs for
it, for playbook tasks and ad-hoc commands alike, with an ``ActionContext``. Adding one is described in
docs/architecture.md.
"""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import ActionFailed
from runner.actions.assemble import run_assemble
from runner.actions.assertions import run_assert, run_fail
from runner.actions.context import Action, ActionContext
from runner.actions.copy import run_copy
from runner.actions.debug import run_debug
from runner.actions.fetch import run_fetch
from runner.actions.include_vars import run_include_vars
from runner.actions.inventory_changes import run_add_host, run_group_by
from runner.actions.meta import run_meta
from runner.actions.pause import run_pause
from runner.actions.protomatter_debug import run_protomatter_debug
from runner.actions.raw import run_raw
from runner.actions.reboot import run_reboot
from runner.actions.script import run_script
from runner.actions.server import run_server
from runner.actions.set_fact import run_set_fact
from runner.actions.stats_and_specs import run_set_stats, run_validate_argument_spec
from runner.actions.template import run_template
from runner.actions.unarchive import run_unarchive
from runner.actions.wait_for_connection import run_wait_for_connection
from runner.errors import UserError

ACTIONS: dict[str, Action] = {
    # Work on the host from the controller: files the controller has, or no agent at all.
    "copy": Action(run_copy),
    "template": Action(run_template),
    "fetch": Action(run_fetch),
    "unarchive": Action(run_unarchive),
    "assemble": Action(run_assemble),
    "script": Action(run_script),
    "raw": Action(run_raw),
    "wait_for_connection": Action(run_wait_for_connection),
    "reboot": Action(run_reboot),
    # Work on the run's own state: the host is never contacted.
    "debug": Action(run_debug, uses_host=False, expressions=("var",)),
    "ansible._protomatter.debug": Action(run_protomatter_debug, uses_host=False, expressions=("expression",)),
    "set_fact": Action(run_set_fact, uses_host=False, arguments_become_variables=True),
    "assert": Action(run_assert, uses_host=False, expressions=("that",)),
    "fail": Action(run_fail, uses_host=False),
    "pause": Action(run_pause, uses_host=False),
    "add_host": Action(run_add_host, uses_host=False),
    "group_by": Action(run_group_by, uses_host=False),
    "server": Action(run_server, uses_host=False),
    "set_stats": Action(run_set_stats, uses_host=False),
    "validate_argument_spec": Action(run_validate_argument_spec, uses_host=False),
    # ad hoc it shows what the files hold (nothing keeps it), as ansible-core 2.19 does
    "include_vars": Action(run_include_vars, uses_host=False),
    # ad hoc it runs as the one task of a play, as ansible-core runs every ad-hoc command (runner.cli.adhoc_play)
    "meta": Action(run_meta, uses_host=False),
}


def action_for(name: str, module: str) -> Action:
    """The registered action a module's ``ACTION`` marker names."""
    action = ACTIONS.get(name)
    if action is None:
        raise UserError(f"module {module} declares ACTION = {name!r}, which no controller-side action is "
                           f"registered as (see runner/actions/__init__.py)")
    return action


async def run_action(action: Action, ctx: ActionContext) -> dict[str, Any]:
    """The action's result; an ``ActionFailed`` it raises is its host's failure with that message."""
    try:
        return await action.run(ctx)
    except ActionFailed as failure:
        return failure.result


__all__ = ["ACTIONS", "Action", "ActionContext", "ActionFailed", "action_for", "run_action"]
