"""Strategy plugins of collections (``strategy = NS.COLL.NAME``), as far as this runner can honour them.

Its strategies are its own (linear, free, host_pinned), not ansible-core's classes. A collection's strategy plugin
that only subclasses one of ansible-core's, adding nothing (a plugin that gives a strategy another name), runs as
that strategy; one that overrides anything would need ansible-core's executor and is refused, naming what it
defines. The file is read, not imported: nothing of it runs here. As ansible-core, any strategy plugin outside
``ansible.builtin`` gets its deprecation warning.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from runner.ansible_api.collections import find_collection_plugin, split_fqcn
from runner.ansible_api.routing import warn_deprecated
from runner.errors import UserError

BUILTIN_STRATEGIES = ("linear", "free", "host_pinned")
_CORE_PACKAGE = "ansible.plugins.strategy"
# ansible-core's words (its plugin loader's) for a strategy plugin from outside ansible.builtin
DEPRECATION = ("Use of strategy plugins not included in ansible.builtin are deprecated and do not carry any backwards "
               "compatibility guarantees. No alternative for third party strategy plugins is currently planned.")


def builtin_name(name: str) -> str | None:
    """``linear`` for ``linear``, ``ansible.builtin.linear`` or ``ansible.legacy.linear``; None for another name."""
    short = name.removeprefix("ansible.builtin.").removeprefix("ansible.legacy.")
    return short if short in BUILTIN_STRATEGIES else None


@cache
def resolve_strategy(name: str, collections_paths: tuple[Path, ...]) -> str:
    """The builtin strategy that strategy ``name`` runs as; a UserError for one this runner cannot run. Once per
    name in a process: the deprecation warning is said once, however many commands' parts ask."""
    builtin = builtin_name(name)
    if builtin is not None:
        return builtin
    split = split_fqcn(name)
    if split is None:
        raise UserError(f"unknown strategy '{name}': expected one of {', '.join(BUILTIN_STRATEGIES)}, or a "
                        "collection's strategy plugin by its full name (NS.COLL.NAME)")
    path = find_collection_plugin(split[0], "strategy", split[1], collections_paths)
    if path is None:
        raise UserError(f"strategy plugin '{name}' was not found: no plugins/strategy/{split[1]}.py in the "
                        f"collection {split[0]} in the collections path")
    base = subclassed_strategy(path)
    warn_deprecated(DEPRECATION)
    return base


def subclassed_strategy(path: Path) -> str:
    """The ansible-core strategy whose ``StrategyModule`` the plugin's ``StrategyModule`` subclasses unchanged."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError) as exc:
        raise UserError(f"strategy plugin {path} does not parse: {exc}") from None
    imported = _core_strategy_names(tree)
    plugin = next((node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "StrategyModule"),
                  None)
    if plugin is None:
        raise UserError(f"strategy plugin {path} defines no StrategyModule class")
    bases = [imported.get(ast.unparse(base)) for base in plugin.bases]
    if len(bases) != 1 or bases[0] is None:
        raise UserError(f"strategy plugin {path}: StrategyModule must subclass the StrategyModule of one of "
                        f"ansible-core's strategies ({', '.join(BUILTIN_STRATEGIES)}) to run here")
    defined = [_defined_name(node) for node in plugin.body if not _is_inert(node)]
    if defined:
        raise UserError(f"strategy plugin {path} changes ansible-core's {bases[0]} strategy ({', '.join(defined)}), "
                        f"which needs ansible-core's executor; this runner runs its own {bases[0]} strategy",
                        hint=f"use strategy {bases[0]}")
    return bases[0]


def _core_strategy_names(tree: ast.Module) -> dict[str, str]:
    """What the module's top-level imports make of ansible-core's strategies, as the source names them:
    ``LinearStrategy`` or ``linear.StrategyModule`` → ``linear``."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for alias in node.names:
                local = alias.asname or alias.name
                strategy = node.module.removeprefix(_CORE_PACKAGE + ".")
                if strategy in BUILTIN_STRATEGIES and alias.name == "StrategyModule":
                    names[local] = strategy
                elif node.module == _CORE_PACKAGE and alias.name in BUILTIN_STRATEGIES:
                    names[f"{local}.StrategyModule"] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                strategy = alias.name.removeprefix(_CORE_PACKAGE + ".")
                if strategy in BUILTIN_STRATEGIES:
                    names[f"{alias.asname or alias.name}.StrategyModule"] = strategy
    return names


def _is_inert(node: ast.stmt) -> bool:
    """A docstring, ``...`` or ``pass``: a class body that adds nothing."""
    return isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))


def _defined_name(node: ast.stmt) -> str:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return ", ".join(ast.unparse(target) for target in targets)
    return ast.unparse(node).splitlines()[0]
