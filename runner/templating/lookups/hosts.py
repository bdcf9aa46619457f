"""The ``inventory_hostnames`` lookup: the host names a pattern selects, as ``hosts:`` would select them.

As Ansible's, it reads the ``groups`` variable (the inventory as the task sees it, ``add_host`` and
``group_by`` included), not the inventory files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.errors import UserError
from runner.inventory.inventory import Inventory
from runner.inventory.patterns import select, split_pattern
from runner.templating.errors import TemplateError
from runner.templating.lookups.base import LookupContext


def inventory_hostnames(terms: list[Any], context: LookupContext) -> list[str]:
    groups = context.variable("groups", {})
    if not isinstance(groups, Mapping):
        raise TemplateError("lookup 'inventory_hostnames': the 'groups' variable is not a dictionary")
    inventory = Inventory()
    with inventory.batch():
        for group, names in groups.items():
            inventory.add_group(str(group))
            for name in names or ():
                inventory.add_host(str(name), [str(group)])
    try:
        selected = select(inventory, split_pattern([str(term) for term in terms]))
    except UserError as exc:
        raise TemplateError(f"lookup 'inventory_hostnames': {exc.message}") from None
    return [host.name for host in selected if not host.implicit]


LOOKUPS = {"inventory_hostnames": inventory_hostnames}
