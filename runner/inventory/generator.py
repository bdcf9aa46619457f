"""The ``generator`` inventory plugin: hosts named from a template over every combination of ``layers``, each put in
parent groups (themselves templated, with their own ``vars`` and ``parents``), as Ansible's.

```yaml
plugin: generator
hosts:
  name: "{{ operation }}_{{ application }}_{{ environment }}_runner"
  parents:
    - name: "{{ operation }}_{{ application }}_{{ environment }}"
      parents: [{name: "{{ application }}", vars: {application: "{{ application }}"}}]
layers:
  operation: [build, launch]
  environment: [dev, test, prod]
  application: [web, api]
```
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import product
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.inventory.datafile import where
from runner.inventory.inventory import Inventory
from runner.inventory.plugin_options import checked_options

OPTIONS = {"hosts": dict, "layers": dict}


def add_generator_source(inventory: Inventory, path: Path, data: Mapping[str, Any]) -> None:
    from runner.templating import Templar, TemplateError  # Jinja2 loads only for inventories that need it

    options = checked_options(data, path, "generator", OPTIONS)
    for needed in ("hosts", "layers"):
        if needed not in options:
            raise ParseError(f"inventory plugin 'generator' needs '{needed}'", SourcePosition(str(path), 1, 1))
    hosts, layers = options["hosts"], options["layers"]
    if "name" not in hosts:
        raise ParseError("'hosts' of inventory plugin 'generator' needs a 'name' template", where(data, "hosts", path))
    for layer, values in layers.items():
        if not isinstance(values, list):
            raise ParseError(f"layer '{layer}' must be a list of values, got {type(values).__name__}",
                             where(layers, layer, path))
    templar = Templar()
    generated = _Generator(inventory, templar, SourcePosition(str(path)))
    with inventory.batch():
        for combination in product(*layers.values()):
            variables = dict(zip(layers, combination, strict=True))
            try:
                name = generated.text(hosts["name"], variables)
                inventory.add_host(name)
                generated.add_parents(name, hosts.get("parents") or [], variables)
            except TemplateError as exc:
                raise ParseError(f"generator: {exc} (layers {variables})", SourcePosition(str(path))) from None


class _Generator:
    def __init__(self, inventory: Inventory, templar: Any, position: SourcePosition) -> None:
        self.inventory = inventory
        self.templar = templar
        self.position = position

    def text(self, template: Any, variables: Mapping[str, Any]) -> Any:
        return self.templar.template(template, variables) if isinstance(template, str) else template

    def add_parents(self, child: str, parents: list[Any], variables: Mapping[str, Any]) -> None:
        for parent in parents:
            if not isinstance(parent, dict):
                raise ParseError(f"a parent of '{child}' must be a mapping with a 'name', got "
                                 f"{type(parent).__name__}", self.position)
            name = self.text(parent.get("name"), variables)
            if not name:
                raise ParseError(f"Element {child} has a parent with no name.", self.position)
            group = self.inventory.add_group(str(name))
            for variable, value in (parent.get("vars") or {}).items():
                group.set_variable(str(variable), self.text(value, variables), self.position)
            self.inventory.add_child(str(name), child, position=self.position)
            self.add_parents(str(name), parent.get("parents") or [], variables)
