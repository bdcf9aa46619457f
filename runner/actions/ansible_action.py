"""A collection's action plugin (``plugins/action/NAME.py``, built on ansible-core's ``ActionBase``), run on the
controller behind a stand-in for the part of ansible-core's executor such plugins use.

The plugin's own class is instantiated with stand-ins for Ansible's task, play context, loader and templar, and
a connection over the host's session (``runner.actions.ansible_connection``), so ActionBase's own file-transfer,
temporary-directory and command helpers run as they are. Its ``_execute_module`` is replaced by a call through
the host's agent (the module goes through the module index as any task's: a native module, or a collection module
through the compatibility layer). ansible-core's ``ActionBase.run`` (argument checks, check-mode and async
refusals, the early temporary directory of ``TRANSFERS_FILES``) runs as it is, and its ``cleanup`` removes that
directory afterwards, as ansible-core's executor calls it. The plugin is synchronous: it runs in a thread while
the worker's event loop carries its module calls and commands. Which plugins can run is
decided from their source when the playbook compiles (``runner.ansible_api.action_check``).
"""

from __future__ import annotations

import asyncio
import os
import pickle
import tempfile
import traceback
from dataclasses import replace
from pathlib import Path
from typing import Any

from runner.actions import action_for, run_action
from runner.actions.ansible_connection import ActionConnection, UnsupportedActionFeature, load_shell
from runner.actions.ansible_loaders import SharedLoaders
from runner.actions.ansible_warnings import captured_warnings
from runner.actions.context import Action, ActionContext
from runner.actions.secret_sources import is_encrypted_source
from runner.ansible_api.action_check import action_plugin_problem
from runner.ansible_api.plugin_import import import_plugin, use_collections_paths
from runner.connection.become import BecomeFailure
from runner.errors import ConnectionFailure, UserError
from runner.util.async_jobs import finished_job


class _Task:
    """What action plugins read of Ansible's Task."""

    def __init__(self, ctx: ActionContext):
        self.args = dict(ctx.args)
        self.action = ctx.module.name
        self.resolved_action = ctx.module.name
        self.async_val = ctx.async_seconds
        self.poll = 0  # never read by ActionBase: ansible-core's executor polls, here the agent waits
        self.check_mode = ctx.check
        self.diff = ctx.diff
        self.become = bool(ctx.become)
        self.delegate_to = None
        self.delegate_facts = False
        self.environment = [ctx.environment] if ctx.environment else []
        self.no_log = ctx.no_log
        self.collections: list[str] = list(ctx.collections)
        self._search_paths = [str(path) for path in ctx.search_paths]

    def get_search_path(self) -> list[str]:
        return list(self._search_paths)


class _PlayContext:
    """What action plugins read of Ansible's PlayContext."""

    def __init__(self, ctx: ActionContext, executable: str):
        self.check_mode = ctx.check
        self.diff = ctx.diff
        self.become = bool(ctx.become)
        self.become_user = ctx.become.user if ctx.become else None
        self.become_method = ctx.become.method if ctx.become else None
        self.verbosity = ctx.verbosity
        self.remote_addr = ctx.host
        self.remote_user = ctx.session.settings.user
        self.executable = executable
        self.connection = ctx.session.settings.connection


class _Loader:
    """What action plugins use of Ansible's DataLoader: files in the role's and playbook's folders."""

    def __init__(self, ctx: ActionContext):
        self._ctx = ctx
        self._decrypted: set[str] = set()

    def get_basedir(self) -> str:
        return str(self._ctx.search_paths[-1]) if self._ctx.search_paths else os.getcwd()

    def path_dwim_relative_stack(self, paths: list[str], dirname: str, source: str, is_role: bool = False) -> str:
        from ansible.errors import AnsibleFileNotFound

        try:
            return str(self._ctx.find_file(source, dirname))
        except UserError as exc:
            raise AnsibleFileNotFound(exc.message) from None

    def get_real_file(self, file_path: str, decrypt: bool = True) -> str:
        """The file to read: the controller's file itself, or for a vault-encrypted one its plaintext in a private
        temporary file (as ansible-core's loader gives it), removed by ``cleanup_tmp_file`` or after the plugin."""
        from ansible.errors import AnsibleError, AnsibleFileNotFound

        path = Path(file_path)
        if not path.is_file():
            raise AnsibleFileNotFound(file_name=file_path)
        if not decrypt or not is_encrypted_source(path):
            return file_path
        from runner.secrets.files import read_file_bytes  # loads cryptography: only for an encrypted file

        try:
            plaintext = read_file_bytes(path)
        except UserError as exc:
            raise AnsibleError(exc.message) from None
        descriptor, name = tempfile.mkstemp(prefix="provisioning-decrypted-")
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(plaintext)
        self._decrypted.add(name)
        return name

    def cleanup_tmp_file(self, file_path: str) -> None:
        if file_path in self._decrypted:
            self._decrypted.discard(file_path)
            Path(file_path).unlink(missing_ok=True)

    def cleanup_all_tmp_files(self) -> None:
        for name in list(self._decrypted):
            self.cleanup_tmp_file(name)


class _Templar:
    """What action plugins use of Ansible's Templar: rendering a value with the task's variables."""

    def __init__(self, ctx: ActionContext):
        self._ctx = ctx
        self.available_variables = ctx.task_vars

    def template(self, value: Any, **_options: Any) -> Any:
        return self._ctx.templar.template(value)


def _plugin_class(ctx: ActionContext, path: Path) -> Any:
    # the plugin's own collection, which a module's routing (action_plugin: NS.COLL.X) may name beside its own
    parts = path.parts
    collection = (f"{parts[-5]}.{parts[-4]}" if len(parts) > 6 and parts[-6] == "ansible_collections"
                  else ctx.module.collection)
    module_name = f"ansible_collections.{collection}.plugins.action.{path.stem}" if collection else None
    if ctx.connection is not None:
        # ansible-core's collection finder, for the collection's imports and for the plugin loader that gives the
        # shell plugin (which finds ansible.builtin's plugins through it) to any action plugin
        use_collections_paths(ctx.connection.index.collections_paths)
    return import_plugin("action", path, module_name).ActionModule


def _result_of(exc: BaseException) -> dict[str, Any] | None:
    """The result an Ansible action exception carries (AnsibleActionFail, AnsibleActionSkip), or None."""
    result = getattr(exc, "result", None)
    if isinstance(result, dict):
        return result
    return None


# Native modules whose ``src`` is read on the controller by their action, where Ansible's module reads it on the
# host (its action plugin has sent the file there first): called from a plugin, the source is on the host.
_HOST_SOURCE_MODULES = frozenset({"copy", "unarchive"})


def _module_call_args(ctx: ActionContext, name: str, args: dict[str, Any], ignore_unknown: bool) -> dict[str, Any]:
    """A plugin's module arguments as the module takes them here: without ActionBase's ``_ansible_*`` keys, with
    options the module does not know dropped when the plugin asked for that (``_execute_remote_stat`` passes
    ``get_size``, which not every stat module has), and a ``src`` on the host said so."""
    args = {key: value for key, value in args.items() if not key.startswith("_ansible_")}
    info = ctx.session.index.get(name)
    if ignore_unknown and not info.ansible_api and not info.any_arguments:
        spec = info.argument_spec
        known = set(spec) | {alias for option in spec.values() for alias in option.get("aliases", ())}
        args = {key: value for key, value in args.items() if key in known or key == info.free_form}
    if info.name in _HOST_SOURCE_MODULES and not info.ansible_api and args.get("src") is not None:
        args.setdefault("remote_src", True)
    return args


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
    # The shell the host's commands go through: the task's ansible_shell_type, else the one the host's connection
    # plugin names, else sh (as ansible-core's ConnectionBase chooses it).
    connection_plugin = await ctx.session.connection_plugin()
    default_shell = getattr(getattr(connection_plugin, "_shell", None), "SHELL_FAMILY", None) or "sh"
    shell_family = str(ctx.templar.template(ctx.task_vars.get("ansible_shell_type", default_shell)))
    executable = str(ctx.templar.template(ctx.task_vars.get("ansible_shell_executable", "/bin/sh")))

    running: list[Any] = []  # the plugin, once made

    def execute_module(module_name: str | None = None, module_args: dict[str, Any] | None = None,
                       tmp: str | None = None, task_vars: Any = None, persist_files: bool = False,
                       delete_remote_tmp: bool | None = None, wrap_async: bool = False,
                       ignore_unknown_opts: bool = False) -> dict[str, Any]:
        name = module_name or ctx.module.name
        if wrap_async and not ctx.async_seconds:
            raise UnsupportedActionFeature(f"the action plugin {path} starts the module {name} in the background "
                                           "(wrap_async) to poll it, which only ansible-core's executor can")
        args = _module_call_args(ctx, name, module_args if module_args is not None else ctx.args,
                                 ignore_unknown_opts)
        # The task's temporary directory, if the plugin made one, is the module's (_ansible_tmpdir), as in
        # ansible-core: never for an unprivileged become user, who may not be able to write there.
        plugin = running[0] if running else None
        tmpdir = None if plugin is None or plugin._is_become_unprivileged() else plugin._connection._shell.tmpdir
        result = asyncio.run_coroutine_threadsafe(ctx.run_module(name, args, tmpdir=tmpdir), loop).result()
        # The task's async job is waited for here, within its limit: the plugin gets the finished job that
        # ansible-core's executor would have polled for
        return finished_job(result) if wrap_async else result

    async def run_named(name: str, args: dict[str, Any]) -> dict[str, Any]:
        """Another action or module on the same host, as the plugin's action loader hands it out."""
        info = ctx.session.index.get(name)
        if "_raw_params" in args and info.free_form not in (None, "_raw_params"):
            args[str(info.free_form)] = args.pop("_raw_params")
        other = replace(ctx, module=info, args=args)
        if info.action_plugin is not None:
            return await run_ansible_action(other)
        if info.action:
            return await run_action(action_for(info.action, info.name), other)
        return await other.run_module()

    def run_named_here(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return asyncio.run_coroutine_threadsafe(run_named(name, args), loop).result()

    def run_plugin() -> dict[str, Any]:
        from ansible import constants

        # ActionBase._transfer_data stages data in ansible-core's local temporary directory, made when ansible-core
        # was first imported: another process of the run that shares it may have removed it when it ended.
        os.makedirs(constants.DEFAULT_LOCAL_TMP, mode=0o700, exist_ok=True)
        shell = load_shell(shell_family, ctx.task_vars, ctx.templar.template)
        connection = ActionConnection(str(path), ctx.session, loop, shell, ctx.become)
        loader = _Loader(ctx)
        plugin = plugin_class(_Task(ctx), connection, _PlayContext(ctx, executable), loader, _Templar(ctx))
        plugin._execute_module = execute_module
        running.append(plugin)
        plugin._shared_loader_obj = SharedLoaders(plugin._task, run_named_here,
                                                  lambda name: ctx.session.index.find(name) is not None)
        plugin._load_name = plugin.ansible_name = ctx.module.name
        try:
            with captured_warnings(dict(ctx.task_vars)) as captured:
                result = dict(plugin.run(None, dict(ctx.task_vars)))
            result = captured.joined(result)
        finally:
            # the remote temporary directory the plugin made, and the decrypted copies of vaulted files it read,
            # as ansible-core's executor removes them
            plugin.cleanup()
            loader.cleanup_all_tmp_files()
        try:  # the result travels from the worker to the controller pickled: refuse one that cannot, here
            pickle.dumps(result)
        except Exception as exc:
            return {"failed": True, "changed": False, "msg": f"Task result omitted due to queue send failure: {exc}"}
        return result

    try:
        result = await asyncio.to_thread(run_plugin)
    except UnsupportedActionFeature as exc:
        return {"failed": True, "changed": False, "msg": str(exc)}
    except (ConnectionFailure, BecomeFailure):
        raise  # the host could not be reached, or escalation failed: reported as for any other task
    except Exception as exc:
        carried = _result_of(exc)
        if carried is not None:
            return {"changed": False, **carried}
        # ansible-core 2.19's words for an exception that escaped an action plugin, and its traceback
        return {"failed": True, "changed": False, "msg": f"Task failed: {exc}",
                "exception": "".join(traceback.format_exception(exc))}
    return result


ANSIBLE_ACTION = Action(run_ansible_action, supports_async=True)
