"""The ``constructed`` inventory plugin: variables (``compose``) and groups (``groups``, ``keyed_groups``) made from
Jinja2 expressions over the variables of the hosts that earlier sources defined, as Ansible's.

```yaml
plugin: constructed
strict: false                 # true: an expression that fails is an error, not a skipped entry
compose:
  ansible_host: private_ip    # a Jinja2 expression, no {{ }}
groups:
  webservers: "'web' in inventory_hostname"
keyed_groups:
  - key: os                   # os=debian -> group os_debian (prefix, separator, default_value,
    prefix: os                # trailing_separator, parent_group as Ansible's)
```
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.inventory import merge
from runner.inventory.datafile import where
from runner.inventory.inventory import Inventory
from runner.inventory.model import Host
from runner.inventory.plugin_options import checked_options

OPTIONS = {"compose": dict, "groups": dict, "keyed_groups": list, "strict": bool, "leading_separator": bool,
           "use_extra_vars": bool, "use_vars_plugins": bool}
_KEYED_OPTIONS = ("key", "prefix", "separator", "default_value", "trailing_separator", "parent_group")
# Ansible's INVALID_VARIABLE_NAMES: a group name made here has every other character replaced by "_".
_UNSAFE_GROUP_CHARACTERS = re.compile(r"^[\d\W]|[^\w]")
_EMPTY = (None, "")


def add_constructed_source(inventory: Inventory, path: Path, data: Mapping[str, Any]) -> None:
    options = checked_options(data, path, "constructed", OPTIONS)
    _check_keyed_groups(data, path, options.get("keyed_groups", []))
    builder = _Builder(inventory, path, options)
    with inventory.batch():
        for host in list(inventory.hosts.values()):
            builder.construct(host)


def safe_group_name(name: str) -> str:
    return _UNSAFE_GROUP_CHARACTERS.sub("_", name)


class _Builder:
    def __init__(self, inventory: Inventory, path: Path, options: dict[str, Any]) -> None:
        from runner.templating import Templar  # Jinja2 loads only for inventories that need it

        self.inventory = inventory
        self.position = SourcePosition(str(path))
        self.options = options
        self.strict = bool(options.get("strict", False))
        self.templar = Templar()

    def construct(self, host: Host) -> None:
        # As Ansible: every compose entry sees the variables from before any of them; groups and keyed_groups
        # see them once more with the composed ones, taken before any group is added (so not in group_names).
        variables = self._variables(host)
        for name, expression in self.options.get("compose", {}).items():
            value = self._attempt(lambda expression=expression: self._evaluate(expression, variables),
                                  f"could not set {name} for host {host.name}")
            if value is not _FAILED:
                host.vars[str(name)] = value
        if self.options.get("compose") and self.options.get("use_vars_plugins"):
            self.inventory.refresh()  # the merged variables are cached
        variables = self._variables(host)
        for group, condition in self.options.get("groups", {}).items():
            holds = self._attempt(lambda condition=condition: self.templar.evaluate_conditional(condition, variables),
                                  f"could not add host {host.name} to group {group}")
            if holds is not _FAILED and holds:
                self.inventory.add_host(host.name, [safe_group_name(str(group))])
        for keyed in self.options.get("keyed_groups", []):
            self._keyed(keyed, host, variables)

    def _keyed(self, keyed: Mapping[str, Any], host: Host, variables: Mapping[str, Any]) -> None:
        key = self._attempt(lambda: self._evaluate(keyed.get("key"), variables),
                            f"could not make a group for host {host.name} from key {keyed.get('key')!r}")
        if key is _FAILED:
            return
        default = keyed.get("default_value")
        use_default = key in _EMPTY and default is not None
        if not key and not use_default:
            if self.strict and key not in ([], {}):
                raise ParseError(f"keyed_groups key {keyed.get('key')!r} is empty for host {host.name}",
                                 self.position)
            return
        parent = self._attempt(lambda: self.templar.template(keyed.get("parent_group"), variables),
                               f"could not make the parent group {keyed.get('parent_group')!r}")
        if parent is _FAILED:
            return
        prefix, separator = str(keyed.get("prefix", "")), str(keyed.get("separator", "_"))
        for bare in self._bare_names(key, keyed, separator, use_default):
            if prefix == "" and self.options.get("leading_separator", True) is False:
                separator = ""
            group = safe_group_name(f"{prefix}{separator}{bare}")
            self.inventory.add_host(host.name, [group])
            if parent:
                parent_group = safe_group_name(str(parent))
                self.inventory.add_group(parent_group)
                self.inventory.add_child(parent_group, group, position=self.position)

    def _bare_names(self, key: Any, keyed: Mapping[str, Any], separator: str, use_default: bool) -> list[str]:
        default = keyed.get("default_value")
        if use_default:
            return [str(default)]
        if isinstance(key, str):
            return [key]
        if isinstance(key, list):
            return [str(default) if item in _EMPTY and default is not None else str(item) for item in key]
        if isinstance(key, Mapping):
            names = []
            for name, value in key.items():
                bare = f"{name}{separator}{value}"
                if value in _EMPTY:
                    if default is not None:
                        bare = f"{name}{separator}{default}"
                    elif keyed.get("trailing_separator") is False:
                        bare = str(name)
                names.append(bare)
            return names
        raise ParseError(f"keyed_groups key {keyed.get('key')!r} gave {type(key).__name__}: expected a string, a "
                         "list of them or a mapping", self.position)

    def _evaluate(self, expression: Any, variables: Mapping[str, Any]) -> Any:
        if not isinstance(expression, str):
            return expression
        return self.templar.template("{{ " + expression + " }}", variables)

    def _variables(self, host: Host) -> dict[str, Any]:
        """What Ansible's constructed sees: the inventory sources' variables of the host and its groups (with
        use_vars_plugins, the group_vars/host_vars files' too), and with use_extra_vars, -e's."""
        if self.options.get("use_vars_plugins"):
            variables = self.inventory.host_vars(host.name)
        else:
            variables = dict(self.inventory.groups["all"].vars)
            for group in merge.sort_groups(group for group in host.all_groups() if group.name != "all"):
                variables.update(group.vars)
            variables.update(host.vars)
            variables.update(merge.magic_variables(host))
        if self.options.get("use_extra_vars"):
            variables.update(self.inventory.extra_vars)
        return variables

    def _attempt(self, evaluate: Any, failure: str) -> Any:
        """The entry's value; one that fails is skipped, or with strict an error."""
        from runner.templating import TemplateError

        try:
            return evaluate()
        except TemplateError as exc:
            if self.strict:
                raise ParseError(f"{failure}: {exc}", self.position) from None
            return _FAILED


_FAILED = object()


def _check_keyed_groups(data: Mapping[str, Any], path: Path, entries: list[Any]) -> None:
    for entry in entries:
        position = where(data, "keyed_groups", path)
        if not isinstance(entry, dict):
            raise ParseError(f"a keyed_groups entry must be a mapping, got {type(entry).__name__}", position)
        for name in entry:
            if name not in _KEYED_OPTIONS:
                raise ParseError(f"unknown key '{name}' in a keyed_groups entry", where(entry, name, path),
                                 hint=f"expected one of {', '.join(_KEYED_OPTIONS)}")
        if "key" not in entry:
            raise ParseError("a keyed_groups entry needs a 'key'", position)
        if entry.get("trailing_separator") is not None and entry.get("default_value") is not None:
            raise ParseError("default_value and trailing_separator cannot both be set in a keyed_groups entry",
                             where(entry, "trailing_separator", path))
