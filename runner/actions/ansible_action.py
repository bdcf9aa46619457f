"""A collection's action plugin (``plugins/action/NAME.py``, built on ansible-core's ``ActionBase``), run on the
controller behind a stand-in for the part of ansible-core's executor such plugins use.

The plugin's own class is instantiated with stand-ins for Ansible's task, play context, connection, loader and
templar, and its ``_execute_module`` is replaced by a call through the host's agent (the module goes through
the module index as any task's: a native module, or a collection module through the compatibility layer).
ansible-core's ``ActionBase.run`` (argument checks, check-mode and async refusals) runs as it is. The plugin is
synchronous: it runs in a thread while the worker's event loop carries its module calls. Which plugins can run is
decided from their source when the playbook compiles (``runner.ansible_api.action_check``).
"""

from __future__ import annotations

import asyncio
import os
import pickle
import traceback
from pathlib import Path
from typing import Any

import yaml

from runner.actions.context import Action, ActionContext
from runner.ansible_api.action_check import action_plugin_problem
from runner.ansible_api.plugin_import import import_plugin, use_collections_paths
from runner.errors import UserError


class UnsupportedActionFeature(Exception):
    """The plugin reached for a part of Ansible's executor the stand-in does not have."""


class _Task:
    """What action plugins read of Ansible's Task."""

    def __init__(self, ctx: ActionContext):
        self.args = dict(ctx.args)
        self.action = ctx.module.name
        self.resolved_action = ctx.module.name
        self.async_val = 0
        self.poll = 0
        self.check_mode = ctx.check
        self.diff = ctx.diff
        self.become = bool(ctx.become)
        self.delegate_to = None
        self.environment = ctx.environment
        self.no_log = False


class _PlayContext:
    """What action plugins read of Ansible's PlayContext."""

    def __init__(self, ctx: ActionContext):
        self.check_mode = ctx.check
        self.diff = ctx.diff
        self.become = bool(ctx.become)
        self.verbosity = ctx.verbosity
        self.remote_addr = ctx.host


class _Shell:
    tmpdir: str | None = None  # no remote temporary directory: modules run inside the agent

    def __init__(self, family: str):
        self.SHELL_FAMILY = family

    def join_path(self, *parts: str) -> str:
        return os.path.join(*parts)


class _Connection:
    """The connection as the stand-in has it: only the shell's ``tmpdir``, which plugins pass to
    ``_remove_tmp_path``. Anything else is a clear failure naming it."""

    def __init__(self, plugin: str, shell_family: str):
        self._shell = _Shell(shell_family)
        self._plugin = plugin

    def __getattr__(self, name: str) -> Any:
        raise UnsupportedActionFeature(f"the action plugin {self._plugin} uses the connection's {name}, which only "
                                       "ansible-core's executor has")


class _Loader:
    """What action plugins use of Ansible's DataLoader: files in the role's and playbook's folders."""

    def __init__(self, ctx: ActionContext):
        self._ctx = ctx

    def get_basedir(self) -> str:
        return str(self._ctx.search_paths[-1]) if self._ctx.search_paths else os.getcwd()

    def path_dwim_relative_stack(self, paths: list[str], dirname: str, source: str, is_role: bool = False) -> str:
        return str(self._ctx.find_file(source, dirname))

    def load_from_file(self, file_name: str) -> Any:
        return yaml.safe_load(Path(file_name).read_text())


class _Templar:
    """What action plugins use of Ansible's Templar: rendering a value with the task's variables."""

    def __init__(self, ctx: ActionContext):
        self._ctx = ctx
        self.available_variables = ctx.task_vars

    def template(self, value: Any, **_options: Any) -> Any:
        return self._ctx.templar.template(value)


def _plugin_class(ctx: ActionContext, path: Path) -> Any:
    collection = ctx.module.collection
    module_name = f"ansible_collections.{collection}.plugins.action.{path.stem}" if collection else None
    if collection and ctx.connection is not None:
        use_collections_paths(ctx.connection.index.collections_paths)
    return import_plugin("action", path, module_name).ActionModule


def _result_of(exc: BaseException) -> dict[str, Any] | None:
    """The result an Ansible action exception carries (AnsibleActionFail, AnsibleActionSkip), or None."""
    result = getattr(exc, "result", None)
    if isinstance(result, dict):
        return result
    return None


async def run_ansible_action(ctx: ActionContext) -> dict[str, Any]:
    path = ctx.module.action_plugin
    assert path is not None
    problem = action_plugin_problem(path, ctx.connection.index.collections_paths if ctx.connection else ())
    if problem is not None:
        return {"failed": True, "changed": False, "msg": f"the action plugin {path} cannot run here: {problem}"}
    try:
        plugin_class = _plugin_class(ctx, path)
    except UserError as exc:
        return {"failed": True, "changed": False, "msg": exc.message}
    loop = asyncio.get_running_loop()
    # The shell the host's commands go through: sh, unless the task's variables name another (as Ansible's).
    shell_family = str(ctx.templar.template(ctx.task_vars.get("ansible_shell_type", "sh")))

    def execute_module(module_name: str | None = None, module_args: dict[str, Any] | None = None,
                       *_args: Any, **_options: Any) -> dict[str, Any]:
        name = module_name or ctx.module.name
        args = {key: value for key, value in (module_args if module_args is not None else ctx.args).items()
                if not key.startswith("_ansible_")}
        return asyncio.run_coroutine_threadsafe(ctx.run_module(name, args), loop).result()

    def run_plugin() -> dict[str, Any]:
        connection = _Connection(str(path), shell_family)
        plugin = plugin_class(_Task(ctx), connection, _PlayContext(ctx), _Loader(ctx), _Templar(ctx))
        plugin._execute_module = execute_module
        plugin._remove_tmp_path = lambda *_args, **_options: None
        plugin._load_name = plugin.ansible_name = ctx.module.name
        result = dict(plugin.run(None, dict(ctx.task_vars)))
        try:  # the result travels from the worker to the controller pickled: refuse one that cannot, here
            pickle.dumps(result)
        except Exception as exc:
            return {"failed": True, "changed": False, "msg": f"Task result omitted due to queue send failure: {exc}"}
        return result

    try:
        result = await asyncio.to_thread(run_plugin)
    except UnsupportedActionFeature as exc:
        return {"failed": True, "changed": False, "msg": str(exc)}
    except Exception as exc:
        carried = _result_of(exc)
        if carried is not None:
            return {"changed": False, **carried}
        # ansible-core 2.19's words for an exception that escaped an action plugin, and its traceback
        return {"failed": True, "changed": False, "msg": f"Task failed: {exc}",
                "exception": "".join(traceback.format_exception(exc))}
    return result


ANSIBLE_ACTION = Action(run_ansible_action)
