"""Can a collection's action plugin run here? Read from its source, before anything runs.

Action plugins run on the controller behind a stand-in for ansible-core's executor
(``runner.actions.ansible_action``): their module calls go through the host's agent, and ActionBase's helpers
that send files, make temporary directories and run commands work over the host's connection. Another action
the plugin loads (``self._shared_loader_obj.action_loader.get(...)``) is this runner's of that name. What needs
more of ansible-core's executor is refused, naming what it uses, when the playbook compiles: building a module's
payload itself, subclassing one of ansible-core's own action plugins (``template``, ``copy``...; ``normal`` only
runs the module and is fine), and running once for all hosts.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from runner.ansible_api.collections import find_collection_plugin

# ActionBase's parts that need ansible-core's own module transport: ``_configure_module`` builds the AnsiballZ
# payload ansible-core sends (modules here run in the host's agent), ``_compute_environment_string`` and
# ``_update_module_args`` prepare that payload's command and arguments.
UNSUPPORTED_HELPERS = frozenset({"_configure_module", "_compute_environment_string", "_update_module_args"})
# Class attributes that ask ansible-core's executor for what the stand-in cannot do.
UNSUPPORTED_FLAGS = {"BYPASS_HOST_LOOP": "runs once for all hosts"}
BASE_CLASSES = frozenset({"ActionBase"})
# ansible-core's action plugins a plugin may build on: ``normal`` only runs the task's module.
SUPPORTED_CORE_ACTIONS = frozenset({"ansible.plugins.action", "ansible.plugins.action.normal"})


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
    if not plugin.bases:
        return "its ActionModule builds on no base class (an action plugin builds on ActionBase)"
    unsupported = _unsupported_base(plugin, tree)
    if unsupported is not None:
        return (f"it builds on {unsupported}, one of ansible-core's own action plugins, which expect its modules' "
                "arguments and results (plugins built on ActionBase, ansible-core's normal action or another "
                "collection plugin run here)")
    bases = [base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "?") for base in plugin.bases]
    paths = tuple(collections_paths)
    base_path = _collection_action_base(tree, bases, paths)
    if base_path is not None and base_path in _seen | {path}:
        return f"it builds on {base_path}, which builds on it in turn"
    if base_path is not None:
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
        return (f"it uses ActionBase's {', '.join(used)}, which build ansible-core's own module payload (modules "
                "run in this runner's agent)")
    return None


def _unsupported_base(plugin: ast.ClassDef, tree: ast.Module) -> str | None:
    """The base class of ``plugin`` that cannot run here, or None. ActionBase runs, as does ansible-core's
    ``normal`` action (ActionBase's module call and nothing more); a base imported from a collection
    (``ansible_collections.*`` or a relative import) or defined in the file itself is another plugin class
    written against ActionBase; ansible-core's other actions (``template``, ``copy`` ...) are refused."""
    origins = {alias.asname or alias.name: ("." * node.level) + (node.module or "")
               for node in tree.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    local = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    for base in plugin.bases:
        name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "?")
        if name in BASE_CLASSES:
            continue
        if name in local and local[name] is not plugin:
            inner = _unsupported_base(local[name], tree)
            if inner is not None:
                return inner
            continue
        origin = origins.get(name, "")
        if origin in SUPPORTED_CORE_ACTIONS or origin.startswith((".", "ansible_collections.")):
            continue
        return f"{name} ({origin})" if origin else name
    return None


@lru_cache(maxsize=256)
def supports_raw_params(path: Path) -> bool:
    """Whether the action plugin at ``path`` takes free-form words (``supports_raw_params = True`` on its
    ActionModule, as ansible-core reads it): they reach it as ``_raw_params``."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError):
        return False
    plugin = next((node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "ActionModule"),
                  None)
    return plugin is not None and any(
        isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is True
        and any(getattr(target, "id", None) == "supports_raw_params" for target in node.targets)
        for node in plugin.body)


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
