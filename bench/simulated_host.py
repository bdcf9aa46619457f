"""SIMULATED HOSTS, for measuring the controller alone: an in-process stand-in for the agent.

``install()`` replaces the one call through which a worker runs a module on a host (``HostSession.run_module``)
with one that answers at once, as a host whose agent took no time would: no connection is opened, no agent
started, no module run. What is left is the controller's and the workers' own work per host-task: the plan,
strategies, variables, templating, messages and results, callbacks. Never used outside bench/coordinator.py.
"""

from __future__ import annotations

from typing import Any

SIMULATED_RESULT = {"changed": False, "ping": "pong", "simulated": True}


async def _answer_at_once(self: Any, name: str, params: dict[str, Any], **options: Any) -> dict[str, Any]:
    return dict(SIMULATED_RESULT)


def install() -> None:
    """Make every host simulated in this process (and in the worker processes it forks afterwards); a Ray
    worker calls it through ``worker_process_setup_hook``."""
    from runner.connection.session import HostSession

    HostSession.run_module = _answer_at_once  # type: ignore[method-assign]
