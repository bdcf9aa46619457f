"""ansible-core's plugin loaders as an action plugin reaches them through ``self._shared_loader_obj``.

Action plugins often hand the real work to another action: ``action_loader.get('ansible.legacy.shell', task=...,
...)`` then ``run()``, or the ``copy``/``template`` action after preparing a file. ansible-core's own action
plugins are built for its executor, so the action loader here gives this runner's action or module of that name
instead, run with the task's arguments as they are when ``run`` is called, on the same host with the same check
mode, diff, become and no_log. Every other loader (lookups, filters, modules' paths ...) is ansible-core's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Runs the named action or module with these arguments; waits for the worker's event loop to carry it.
RunNamed = Callable[[str, dict[str, Any]], dict[str, Any]]


class NamedAction:
    """Another action, as ``action_loader.get`` hands it to a plugin."""

    def __init__(self, name: str, task: Any, run_named: RunNamed):
        self._name = name
        self._task = task
        self._run_named = run_named

    def run(self, tmp: str | None = None, task_vars: Any = None) -> dict[str, Any]:
        return self._run_named(self._name, dict(self._task.args))

    def cleanup(self, force: bool = False) -> None:
        """Nothing of its own to remove: this runner's actions clean up as they finish."""


class ActionLoader:
    """``action_loader``: ``get`` gives the named action of this runner, bound to the task the plugin passes."""

    def __init__(self, task: Any, run_named: RunNamed, known: Callable[[str], bool]):
        self._task = task
        self._run_named = run_named
        self._known = known

    def get(self, name: str, *_args: Any, task: Any = None, **_options: Any) -> NamedAction | None:
        if not self._known(name):
            return None
        return NamedAction(name, task if task is not None else self._task, self._run_named)

    def has_plugin(self, name: str, *_args: Any, **_options: Any) -> bool:
        return self._known(name)

    __contains__ = has_plugin


class SharedLoaders:
    """``self._shared_loader_obj``: the action loader above, ansible-core's ``ansible.plugins.loader`` for the
    rest."""

    def __init__(self, task: Any, run_named: RunNamed, known: Callable[[str], bool]):
        self.action_loader = ActionLoader(task, run_named, known)

    def __getattr__(self, name: str) -> Any:
        from ansible.plugins import loader

        return getattr(loader, name)
