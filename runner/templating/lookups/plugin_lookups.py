"""Lookup plugins written for Ansible: a ``lookup_plugins/`` folder's (beside the playbook, in a role) and a
collection's (``lookup('NS.COLL.NAME', ...)``), whose ``LookupModule`` subclasses ansible-core's ``LookupBase``.

They run on the controller with ansible-core importable (the user's install), behind the small part of Ansible's
``DataLoader`` and ``Templar`` that lookups use: finding a file in the role's and playbook's folders, reading it,
rendering a value. Their options come from their ``DOCUMENTATION``, registered with ansible-core's configuration
as its plugin loader registers them, so ``set_options``/``get_option`` work.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2
import yaml

from runner.ansible_api.collections import BUILTIN_COLLECTIONS, find_collection_plugin, split_fqcn
from runner.ansible_api.plugin_import import PluginImportError, import_plugin, use_collections_paths
from runner.ansible_api.routing import RoutingError, routed_elsewhere
from runner.errors import UserError
from runner.templating.errors import TemplateError
from runner.templating.lookups.base import LookupContext
from runner.templating.plugin_paths import PLUGIN_PATHS

LookupFunction = Callable[..., list[Any]]


class _Loader:
    """What lookup plugins use of Ansible's DataLoader: the base directory and files in the search paths."""

    def __init__(self, context: LookupContext):
        self._context = context

    def get_basedir(self) -> str:
        return str(self._context.search_paths[-1]) if self._context.search_paths else os.getcwd()

    def path_dwim(self, given: str) -> str:
        expanded = os.path.expanduser(given)
        return expanded if os.path.isabs(expanded) else os.path.join(self.get_basedir(), expanded)

    def path_dwim_relative(self, path: str, dirname: str, source: str, is_role: bool = False) -> str:
        found = self._context.find_file(source, dirname)
        return str(found) if found else self.path_dwim(source)

    def path_dwim_relative_stack(self, paths: list[str], dirname: str, source: str, is_role: bool = False) -> str:
        found = self._context.find_file(source, dirname)
        if found is None:
            from ansible.errors import AnsibleFileNotFound

            raise AnsibleFileNotFound(file_name=source, paths=[str(path) for path in self._context.search_paths])
        return str(found)

    def get_real_file(self, file_path: str, decrypt: bool = True) -> str:
        return file_path

    def cleanup_tmp_file(self, file_path: str) -> None:
        pass

    def _get_file_contents(self, file_name: str) -> tuple[bytes, bool]:
        return Path(file_name).read_bytes(), False

    def load_from_file(self, file_name: str) -> Any:
        return yaml.safe_load(Path(file_name).read_text())


class _Templar:
    """What lookup plugins use of Ansible's Templar: rendering a value with the task's variables."""

    def __init__(self, context: LookupContext):
        self._context = context
        self.available_variables = context.variables

    def template(self, value: Any, **_options: Any) -> Any:
        render = getattr(self._context.templar, "template", None)
        return render(value, self._context.variables) if render is not None else value


def _register_options(kind: str, name: str, module: Any) -> None:
    """Give ansible-core's configuration the plugin's documented options, as its plugin loader does."""
    import ansible.constants as C

    try:
        documentation = yaml.safe_load(getattr(module, "DOCUMENTATION", "") or "") or {}
    except yaml.parser.ParserError:  # as ansible-core's plugin loader says it, before it looks for the class
        raise UserError(f"plugin {name} has malformed documentation!") from None
    except yaml.YAMLError:
        documentation = {}
    options = documentation.get("options") if isinstance(documentation, dict) else None
    C.config.initialize_plugin_configuration_definitions(kind, name, options if isinstance(options, dict) else {})


def _marker(value: Any) -> Any:
    """An undefined value as ansible-core's own ``UndefinedMarker`` (a plugin may test for its class), with its
    message; any other value as it is."""
    if not isinstance(value, jinja2.Undefined):
        return value
    from ansible._internal._templating._jinja_common import UndefinedMarker

    return UndefinedMarker(hint=value._undefined_message, _no_template_source=True)


def _adapt(name: str, path: Path, module: Any) -> LookupFunction:
    _register_options("lookup", name, module)
    plugin_class = getattr(module, "LookupModule", None)
    if plugin_class is None:
        raise UserError(f"the lookup plugin {path} defines no LookupModule class")

    def run(terms: list[Any], context: LookupContext, /, **options: Any) -> list[Any]:  # an option may be "terms"
        # ansible-core 2.19's argument markers: a plugin that does not take them is not run for an undefined
        # argument, which is its result; one that does gets ansible-core's UndefinedMarker in its place
        first = next((value for value in [*terms, *options.values()] if isinstance(value, jinja2.Undefined)), None)
        if first is not None and not getattr(plugin_class, "accept_args_markers", False):
            return [first]
        if first is not None:
            terms = [_marker(term) for term in terms]
            options = {key: _marker(value) for key, value in options.items()}
        plugin = plugin_class(loader=_Loader(context), templar=_Templar(context))
        plugin._load_name = plugin.ansible_name = name
        plugin.ansible_aliases = [name]
        plugin._original_path = str(path)
        try:
            # The variables as Ansible passes them: unrendered; a plugin renders what it reads through its templar.
            results = plugin.run(terms, variables=context.variables, **options)
        except TemplateError:
            raise
        except Exception as exc:
            raise TemplateError(f"lookup '{name}' ({path}): {type(exc).__name__}: {exc}") from None
        return list(results or [])

    return run


def routed_lookup(name: str) -> str | None:
    """Where the routing (ansible-core's for short names, a collection's ``meta/runtime.yml``) sends lookup
    ``name``; None when nothing routes it. A removed lookup is a TemplateError."""
    try:
        return routed_elsewhere("lookup", name, PLUGIN_PATHS.collections_paths)
    except RoutingError as exc:
        raise TemplateError(exc.message) from None


def _find(name: str) -> tuple[str, Path, str | None] | None:
    """(the name the plugin is registered under, its file, its module name in a collection) of lookup ``name``."""
    split = split_fqcn(name)
    if split is not None and split[0] not in BUILTIN_COLLECTIONS:
        name = routed_lookup(name) or name
        split = split_fqcn(name)
        assert split is not None
        path = find_collection_plugin(split[0], "lookup", split[1], PLUGIN_PATHS.collections_paths)
        return (name, path, f"ansible_collections.{split[0]}.plugins.lookup.{split[1]}") if path else None
    short = split[1] if split is not None else name
    for folder in PLUGIN_PATHS.lookup_dirs:
        path = folder / f"{short}.py"
        if path.is_file():
            return short, path, None
    return None


_found: dict[tuple[str, int], LookupFunction | None] = {}
_core: dict[str, LookupFunction] = {}


def ansible_core_lookup(name: str) -> LookupFunction:
    """ansible-core's own builtin lookup ``name``, run as a plugin lookup is (for what only ansible-core knows:
    its plugins' settings). Needs ansible-core installed (``runner.ansible_api.core.installed``)."""
    function = _core.get(name)
    if function is None:
        module = importlib.import_module(f"ansible.plugins.lookup.{name}")
        function = _core[name] = _adapt(name, Path(module.__file__ or name), module)
    return function


def plugin_lookup(name: str) -> LookupFunction | None:
    """The lookup plugin ``name`` of the run's ``lookup_plugins/`` folders or collections, or None."""
    key = (name, PLUGIN_PATHS.generation)
    if key in _found:
        return _found[key]
    found = _find(name)
    function = None
    if found is not None:
        registered, path, collection_name = found
        use_collections_paths(PLUGIN_PATHS.collections_paths)
        try:
            module = import_plugin("lookup", path, collection_name)
        except PluginImportError as exc:
            # ansible-core's words (playbooks match on them): the template using it fails, not the run
            raise TemplateError(f"The lookup plugin '{name}' failed to load: {exc.reason}", exc.position,
                                hint=exc.hint) from None
        function = _adapt(registered, path, module)
    _found[key] = function
    return function
