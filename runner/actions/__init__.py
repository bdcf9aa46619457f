"""Controller-side actions: modules whose work happens on the controller, declared by ``ACTION`` in the module.

The executor calls ``ACTIONS[info.action](context)`` for such a module instead of running it on the host's agent.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from runner.actions.assemble import run_assemble
from runner.actions.context import ActionContext
from runner.actions.copy import run_copy
from runner.actions.fetch import run_fetch
from runner.actions.raw import run_raw
from runner.actions.script import run_script
from runner.actions.template import run_template
from runner.actions.unarchive import run_unarchive
from runner.actions.wait_for_connection import run_wait_for_connection

Action = Callable[[ActionContext], Awaitable[dict[str, Any]]]

ACTIONS: dict[str, Action] = {
    "copy": run_copy,
    "raw": run_raw,
    "script": run_script,
    "wait_for_connection": run_wait_for_connection,
    "template": run_template,
    "fetch": run_fetch,
    "unarchive": run_unarchive,
    "assemble": run_assemble,
}

__all__ = ["ACTIONS", "Action", "ActionContext"]
