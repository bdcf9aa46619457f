"""Action groups (``action_groups`` of a runtime.yml) for ``module_defaults: {group/NS.COLL.GROUP: {...}}``: the
fully qualified names of the actions a group holds, as ansible-core resolves them.

A group's items are action names (short ones are the collection's own) and at most one ``metadata`` mapping whose
``extend_group`` lists other groups, whose actions join this one; an extended group that cannot be found adds
nothing, as in ansible-core, while a group named in ``module_defaults`` that cannot be found is an error.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from runner.ansible_api.collections import split_fqcn
from runner.ansible_api.routing import BUILTIN, RoutingError, collection_runtime, route
from runner.errors import UserError

GROUP_PREFIX = "group/"


def _qualified(name: str, collection: str) -> str:
    return name if split_fqcn(name) is not None else f"{collection}.{name}"


def _items(group: str, collections_paths: tuple[Path, ...]) -> list[object] | None:
    """The items of ``group`` (``NS.COLL.GROUP``) as written, or None when the group cannot be found."""
    collection, short = group.rsplit(".", 1)
    runtime = collection_runtime(collection, collections_paths)
    if runtime is None:
        return None
    items = runtime.action_groups.get(group, runtime.action_groups.get(short))
    return list(items) if isinstance(items, list) else None


def group_actions(group: str, collections_paths: Iterable[Path]) -> frozenset[str]:
    """The fully qualified names of the actions of ``group`` (``NS.COLL.GROUP``, a short one is ansible-core's),
    each also under the name its routing leads to. A UserError when the group cannot be found."""
    paths = tuple(collections_paths)
    qualified = _qualified(group, BUILTIN)
    actions: set[str] = set()
    pending, seen = [qualified], set()
    while pending:
        # a short name in extend_group is ansible-core's group, as ansible-core resolves it
        current = _qualified(pending.pop(), BUILTIN)
        if current in seen:
            continue
        seen.add(current)
        items = _items(current, paths)
        if items is None:
            if current == qualified:
                raise UserError(f"could not resolve the module_defaults group {qualified}",
                                hint="an action group is the action_groups entry of the collection's "
                                     "meta/runtime.yml; is the collection installed in the collections path?")
            continue  # an extended group that is not there adds nothing
        collection = current.rsplit(".", 1)[0]
        for item in items:
            if isinstance(item, dict):
                extended = (item.get("metadata") or {}).get("extend_group") or []
                # a short name is a group of the same collection, as in ansible-core
                pending.extend(_qualified(str(name), collection)
                               for name in (extended if isinstance(extended, list) else [extended]))
            elif isinstance(item, str):
                action = _qualified(item, collection)
                actions.add(action)
                try:
                    actions.add(route("modules", action, paths))
                except RoutingError:  # a removed member: only its own name, which no task resolves to
                    pass
    return frozenset(actions)
