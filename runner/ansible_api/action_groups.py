"""Action groups (``action_groups`` of a runtime.yml) for ``module_defaults: {group/NS.COLL.GROUP: {...}}``: the
fully qualified names of the actions a group holds, as ansible-core resolves them.

A group's items are action names (short ones are the collection's own) and at most one ``metadata`` mapping whose
``extend_group`` lists other groups, whose actions join this one; an extended group that cannot be found adds
nothing, as in ansible-core, while a group named in ``module_defaults`` that cannot be found is an error. A
``metadata`` item that is not as ansible-core expects it is warned of in ansible-core's words (unless its
``validate_action_group_metadata`` setting is off).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from runner.ansible_api.collections import split_fqcn
from runner.ansible_api.routing import BUILTIN, RoutingError, collection_runtime, route
from runner.errors import UserError

GROUP_PREFIX = "group/"


def metadata_problems(item: dict[object, object], seen_metadata: bool) -> list[str]:
    """What is wrong with a non-string item of an action group, in ansible-core's words (its
    ``_validate_action_group_metadata``): only a ``metadata`` mapping, once, whose only key ``extend_group`` is a
    list or a string."""
    if list(item) != ["metadata"]:
        return [f"The only expected key is metadata, but got keys: {', '.join(sorted(str(key) for key in item))}"]
    problems = ["The group contains multiple metadata entries."] if seen_metadata else []
    metadata = item["metadata"]
    if not isinstance(metadata, dict):
        return [*problems, f"The metadata is not a dictionary. Got {metadata}"]
    unexpected = [str(key) for key in metadata if key != "extend_group"]
    if unexpected:
        problems.append(f"The metadata contains unexpected keys: {', '.join(unexpected)}")
    extended = metadata.get("extend_group")
    if "extend_group" in metadata and not isinstance(extended, (list, str)):
        problems.append(f"The metadata contains unexpected key types: extend_group is {extended} (expected type list)")
    return problems


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


def group_actions(group: str, collections_paths: Iterable[Path],
                  warn: Callable[[str], None] | None = None) -> frozenset[str]:
    """The fully qualified names of the actions of ``group`` (``NS.COLL.GROUP``, a short one is ansible-core's),
    each also under the name its routing leads to. A UserError when the group cannot be found; what is wrong with
    a group's metadata goes to ``warn`` (no check without it)."""
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
        seen_metadata = False
        for item in items:
            if isinstance(item, dict) and warn is not None:
                problems = metadata_problems(item, seen_metadata)
                if problems:
                    warn(" ".join([f"Invalid metadata was found for action_group {current} while loading "
                                   "module_defaults.", *problems]))
            if isinstance(item, dict):
                seen_metadata = seen_metadata or isinstance(item.get("metadata"), dict)
                metadata = item.get("metadata")
                extended = metadata.get("extend_group") or [] if isinstance(metadata, dict) else []
                # a short name is a group of the same collection, as in ansible-core; a value of another type
                # (warned of above) extends nothing
                names = [extended] if isinstance(extended, str) else extended if isinstance(extended, list) else []
                pending.extend(_qualified(str(name), collection) for name in names)
            elif isinstance(item, str):
                action = _qualified(item, collection)
                actions.add(action)
                try:
                    actions.add(route("modules", action, paths))
                except RoutingError:  # a removed member: only its own name, which no task resolves to
                    pass
    return frozenset(actions)
