"""Can a collection's action plugin run here? Read from its source, before anything runs.

Action plugins run on the controller behind a stand-in for ansible-core's executor
(``runner.actions.ansible_action``): their module calls go through the host's agent, and ActionBase's helpers
that send files, make temporary directories and run commands work over the host's connection. Another action
the plugin loads (``self._shared_loader_obj.action_loader.get(...)``) is this runner's of that name. What needs
more of ansible-core's executor is refused, naming what it uses, when the playbook compiles: building a module's
payload itself, subclassing another action plugin (``template``, ``copy``...), and running once for all hosts.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

# ActionBase's parts that need ansible-core's own module transport: ``_configure_module`` builds the AnsiballZ
# payload ansible-core sends (modules here run in the host's agent), ``_compute_environment_string`` and
# ``_update_module_args`` prepare that payload's command and arguments.
UNSUPPORTED_HELPERS = frozenset({"_configure_module", "_compute_environment_string", "_update_module_args"})
# Class attributes that ask ansible-core's executor for what the stand-in cannot do.
UNSUPPORTED_FLAGS = {"BYPASS_HOST_LOOP": "runs once for all hosts"}
BASE_CLASSES = frozenset({"ActionBase"})


def action_plugin_problem(path: Path) -> str | None:
    """Why the action plugin at ``path`` cannot run here, or None when it only wraps module calls."""
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
        return (f"it builds on {', '.join(bases) or 'no base class'} (only plugins built directly on ActionBase, "
                "which wrap a module call, run here)")
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
