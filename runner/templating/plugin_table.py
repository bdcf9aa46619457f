"""The filter and test tables of the environment: a dict that also finds ``NS.COLL.NAME`` in the collections.

Jinja2 looks a filter up with ``.get`` when it compiles a template and with ``[]`` when the compiled code runs;
both find a collection's filter or test the first time its full name is used and keep it. A short name is looked up
in a collection only where ansible-core's routing sends it (``json_query`` to ``community.general``), never through
a play's ``collections:`` keyword (it names modules and actions only, as in Ansible); a collection's own
``meta/runtime.yml`` routes its full names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from runner.ansible_api.collections import BUILTIN_COLLECTIONS, split_fqcn
from runner.ansible_api.routing import RoutingError, routed_elsewhere
from runner.templating.captured import capturing
from runner.templating.errors import TemplateError
from runner.templating.plugin_paths import PLUGIN_PATHS
from runner.templating.plugins import Plugins, load_collection_plugins


class PluginTable(dict[str, Callable[..., Any]]):
    """Filters (``kind`` ``filter``) or tests (``test``) by name; collections' ones found on first use.

    Each is kept with its errors captured as values (``captured.capturing``), as ansible-core 2.19 calls its
    plugins."""

    def __init__(self, kind: str, plugins: dict[str, Callable[..., Any]]):
        super().__init__()
        self.update(plugins)
        self.kind = kind
        self._collections: dict[tuple[str, tuple[Any, ...]], Plugins] = {}

    def __setitem__(self, name: str, plugin: Callable[..., Any]) -> None:
        dict.__setitem__(self, name, capturing(plugin))

    def update(self, plugins: Any = (), /, **more: Callable[..., Any]) -> None:
        for name, plugin in dict(plugins, **more).items():
            self[name] = plugin

    def _collection_plugins(self, collection: str) -> Plugins:
        key = (collection, PLUGIN_PATHS.collections_paths)
        found = self._collections.get(key)
        if found is None:
            found = self._collections[key] = load_collection_plugins(collection, self.kind,
                                                                     PLUGIN_PATHS.collections_paths)
        return found

    def _resolve(self, name: object) -> Callable[..., Any] | None:
        if not isinstance(name, str):
            return None
        try:  # a plugin that moved out of ansible-core (or within collections) is found where it went
            target = routed_elsewhere(self.kind, name, PLUGIN_PATHS.collections_paths) or name
        except RoutingError as exc:  # removed: the template's error says so
            raise TemplateError(exc.message) from None
        split = split_fqcn(target)
        if split is None:
            return None
        if split[0] in BUILTIN_COLLECTIONS:
            plugin = dict.get(self, split[1]) if target != name else None
        else:
            plugin = self._collection_plugins(split[0]).get(split[1])
        if plugin is None:
            return None
        self[name] = plugin
        return dict.__getitem__(self, name)

    def get(self, name: str, default: Any = None) -> Any:
        if dict.__contains__(self, name):
            return dict.__getitem__(self, name)
        plugin = self._resolve(name)
        return default if plugin is None else plugin

    def __missing__(self, name: str) -> Callable[..., Any]:
        plugin = self._resolve(name)
        if plugin is None:
            raise KeyError(name)
        return plugin

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or self._resolve(name) is not None
