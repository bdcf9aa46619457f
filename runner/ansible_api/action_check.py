"""Can a collection's action plugin run here? Read from its source, before anything runs.

Most collections' action plugins only prepare a module call: they read ``self._task.args``, adjust them and call
``self._execute_module``. Those run on the controller behind a small stand-in for ansible-core's ``ActionBase``
(``runner.actions.ansible_action``), the module going through the host's agent as any other. A plugin that moves
files itself, runs commands on the connection, or builds on another action plugin (``template``, ``copy``...)
needs the rest of ansible-core's executor: it is refused, naming what it uses, when the playbook compiles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from runner.ansible_api.collections import find_collection_plugin

# ActionBase helpers that work on the connection or the remote temporary directory, which the stand-in has not.
UNSUPPORTED_HELPERS = frozenset({
    "_transfer_file", "_transfer_data", "_low_level_execute_command", "_make_tmp_path", "_remote_expand_user",
    "_execute_remote_stat", "_remote_chmod", "_remote_chown", "_remote_chgrp", "_remote_set_user_facl",
    "_remote_file_exists", "_fixup_perms2", "_get_diff_data", "_configure_module", "_compute_environment_string",
    "_shared_loader_obj", "_update_module_args",
})
# Class attributes that ask ansible-core's executor for what the stand-in cannot do.
UNSUPPORTED_FLAGS = {"TRANSFERS_FILES": "transfers files to the host", "BYPASS_HOST_LOOP": "runs once for all hosts"}
BASE_CLASSES = frozenset({"ActionBase"})


def action_plugin_problem(path: Path, collections_paths: Iterable[Path] = (), *, _seen: frozenset[Path] = frozenset()
                          ) -> str | None:
    """Why the action plugin at ``path`` cannot run here, or None when it only wraps module calls. A plugin built
    on a collection's action plugin (``from ansible_collections.NS.COLL.plugins.action.X import ActionModule``)
    can run when that one can."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError) as exc:
        return f"it does not parse: {exc}"
    plugin = next((node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "ActionModule"),
                  None)
    if plugin is None:
        return "it defines no ActionModule class"
    bases = [base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "?") for base in plugin.bases]
    if not any(base in BASE_CLASSES for base in bases):
        paths = tuple(collections_paths)
        base_path = _collection_action_base(tree, bases, paths)
        if base_path is None or base_path in _seen | {path}:
            return (f"it builds on {', '.join(bases) or 'no base class'} (only plugins built on ActionBase, or on a "
                    "collection's action plugin that is, which wrap a module call, run here)")
        problem = action_plugin_problem(base_path, paths, _seen=_seen | {path})
        if problem is not None:
            return f"it builds on {base_path}, and {problem}"
    for node in plugin.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                name = getattr(target, "id", None)
                if name in UNSUPPORTED_FLAGS and isinstance(node.value, ast.Constant) and node.value.value:
                    return f"it {UNSUPPORTED_FLAGS[name]} ({name} = True)"
    used = sorted({node.attr for node in ast.walk(plugin) if isinstance(node, ast.Attribute)
                   and isinstance(node.value, ast.Name) and node.value.id == "self"
                   and node.attr in UNSUPPORTED_HELPERS})
    if used:
        return (f"it uses ActionBase's {', '.join(used)}, which work on the connection directly (only plugins that "
                "wrap a module call run here)")
    return None


def _collection_action_base(tree: ast.Module, bases: list[str], collections_paths: tuple[Path, ...]) -> Path | None:
    """The file of the one base class imported from a collection's action plugin, or None."""
    if len(bases) != 1:
        return None
    for node in tree.body:
        if not isinstance(node, ast.ImportFrom) or not any((alias.asname or alias.name) == bases[0]
                                                           for alias in node.names):
            continue
        parts = (node.module or "").split(".")
        if len(parts) == 6 and parts[0] == "ansible_collections" and parts[3:5] == ["plugins", "action"]:
            return find_collection_plugin(f"{parts[1]}.{parts[2]}", "action", parts[5], collections_paths)
    return None


def builtin_action_alias(path: Path) -> str | None:
    """``X`` when the plugin at ``path`` is ansible-core's action ``X`` under another name (``from
    ansible.plugins.action.X import ActionModule`` and no class of its own); None otherwise."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError):
        return None
    if any(isinstance(node, ast.ClassDef) and node.name == "ActionModule" for node in tree.body):
        return None
    for node in tree.body:
        if (isinstance(node, ast.ImportFrom) and (node.module or "").startswith("ansible.plugins.action.")
                and any(alias.name == "ActionModule" and alias.asname in (None, "ActionModule")
                        for alias in node.names)):
            return (node.module or "").rsplit(".", 1)[-1]
    return None
