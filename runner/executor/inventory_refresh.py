"""``meta: refresh_inventory``: the inventory read again from its sources, with what the run added since.

ansible-core's refresh re-parses the sources and then replays every ``add_host`` and ``group_by`` of the run
(its cached dynamic hosts and groupings), so hosts and groups a task added survive the refresh while hosts gone
from the sources are gone. The controller resolves each play's hosts when the play starts, so the plays after
the refresh see the new inventory; the play that refreshed keeps its hosts, as ansible-core's does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from runner.actions.run_state import AddedHost, JoinedGroup

if TYPE_CHECKING:
    from runner.inventory import Inventory

InventoryLoader = Callable[[], "Inventory"]


class DynamicInventory:
    """The run's changes to its inventory (added hosts, joined groups), kept to be applied again after a refresh.

    ``reload`` reads the configured sources again; without one (a run given a ready inventory), a refresh keeps
    the inventory as it is."""

    def __init__(self, reload: InventoryLoader | None = None):
        self.reload = reload
        self.changes: list[AddedHost | JoinedGroup] = []

    def apply(self, inventory: Inventory, change: AddedHost | JoinedGroup) -> None:
        change.apply(inventory)
        self.changes.append(change)

    def refreshed(self, before: Inventory) -> Inventory | None:
        """The inventory read again with the run's changes applied in order, the hosts of ``before`` it lost
        kept for the play running on them; None when it cannot be re-read."""
        if self.reload is None:
            return None
        inventory = self.reload()
        for change in self.changes:
            # a grouping of a host the sources no longer have is left out, as ansible-core's replay leaves it
            if isinstance(change, AddedHost) or inventory.get_host(change.host) is not None:
                change.apply(inventory)
        inventory.keep_dropped(before)
        return inventory
