"""YAML (and JSON) inventory files: top-level keys are groups, each with ``hosts``, ``children`` and ``vars``.

```yaml
all:
  hosts:
    web[01:02]:            # ranges and ``:port`` work as in INI files
  children:
    db:
      hosts:
        db1: {ansible_host: 10.0.0.5}
  vars:
    ntp_server: ntp.example.com
```
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition, did_you_mean
from runner.inventory.connection_vars import check_connection_variables
from runner.inventory.datafile import where
from runner.inventory.hostnames import expand_host_pattern
from runner.inventory.inventory import Inventory
from runner.inventory.model import Group

_GROUP_KEYS = ("hosts", "children", "vars")


def parse_yaml_inventory(inventory: Inventory, path: Path, data: Any) -> None:
    """Add the groups and hosts of parsed YAML inventory ``data`` (read from ``path``) to ``inventory``."""
    if not data:
        raise ParseError("the YAML inventory is empty", SourcePosition(str(path)))
    if not isinstance(data, dict):
        raise ParseError(f"a YAML inventory must be a mapping of group names, got {type(data).__name__}",
                         SourcePosition(str(path), 1, 1))
    reader = _YamlReader(inventory, path)
    for name, body in data.items():
        reader.group(name, body, where(data, name, path))


class _YamlReader:
    def __init__(self, inventory: Inventory, path: Path) -> None:
        self.inventory = inventory
        self.path = path

    def group(self, name: Any, body: Any, position: SourcePosition) -> Group:
        group_name = str(name)
        if body is not None and not isinstance(body, dict):
            raise ParseError(f"group '{group_name}' must be a mapping with hosts, children and vars, got "
                             f"{type(body).__name__}", position)
        group = self.inventory.add_group(group_name)
        for key, value in (body or {}).items():
            here = where(body, key, self.path)
            if key not in _GROUP_KEYS:
                raise ParseError(f"unknown key '{key}' in group '{group_name}': expected hosts, children or vars",
                                 here, hint=did_you_mean(str(key), _GROUP_KEYS))
            if value is None:
                continue
            if isinstance(value, str):
                value = {value: None}  # Ansible accepts a single name written as a string
            if not isinstance(value, dict):
                raise ParseError(f"'{key}' of group '{group_name}' must be a mapping, got {type(value).__name__}",
                                 here)
            if key == "vars":
                for variable, setting in value.items():
                    group.set_variable(variable, setting, where(value, variable, self.path))
            elif key == "children":
                for child, child_body in value.items():
                    child_position = where(value, child, self.path)
                    self.group(child, child_body, child_position)
                    self.inventory.add_child(group_name, str(child), position=child_position)
            else:
                for pattern, variables in value.items():
                    if not isinstance(pattern, str):  # YAML made a number of it: 1234, 10.1
                        raise ParseError(f"Host pattern {pattern} must be a string. Enclose integers/floats in "
                                         "quotation marks.", where(value, pattern, self.path))
                    self.hosts(group_name, pattern, variables, where(value, pattern, self.path))
        return group

    def hosts(self, group_name: str, pattern: str, variables: Any, position: SourcePosition) -> None:
        if variables is not None and not isinstance(variables, dict):
            raise ParseError(f"host '{pattern}' must map to its variables (or nothing), got {type(variables).__name__}",
                             position)
        names, port = expand_host_pattern(pattern, position)
        own = {} if port is None else {"ansible_port": port}
        own.update(variables or {})
        check_connection_variables(own, lambda name: where(variables, name, self.path) if variables else position)
        for name in names:
            self.inventory.add_host(name, [group_name], own)
