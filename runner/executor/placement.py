"""Which worker holds which host when workers live on several machines: the placement rule of the Ray executor.

Hosts without a shard are spread evenly (round robin) over the workers that may run on any node; hosts whose
``provisioning_shard`` names a shard go, round robin, to that shard's workers, which Ray places only on nodes
offering the shard's custom resource (``shard:NAME``), so a network's hosts are driven from a node inside it.
Pure bookkeeping: runner.executor.ray_pool turns the slots into actors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

# The inventory variable that places a host on the nodes of one shard (a network, a datacenter).
SHARD_VARIABLE = "provisioning_shard"


def shard_resource(shard: str) -> str:
    """The Ray custom resource a node offers to run a shard's workers (``ray start --resources
    '{"shard:dc-east": 1}'``)."""
    return f"shard:{shard}"


@dataclass
class Placement:
    """``slots[i]``: the shard worker i serves (None: any node); ``assignment``: host -> worker."""

    slots: list[str | None] = field(default_factory=list)
    assignment: dict[str, int] = field(default_factory=dict)

    def workers_of(self, shard: str | None) -> list[int]:
        return [index for index, slot in enumerate(self.slots) if slot == shard]

    def least_loaded(self, candidates: Sequence[int]) -> int:
        loads = dict.fromkeys(candidates, 0)
        for worker in self.assignment.values():
            if worker in loads:
                loads[worker] += 1
        return min(candidates, key=lambda worker: (loads[worker], worker))

    def add_host(self, host: str, shard: str | None) -> int:
        """A host added during the run: its shard's least loaded worker; a shard without workers (it was not in
        the inventory at the start) or no shard: the least loaded of the unsharded, else of all."""
        if host not in self.assignment:
            candidates = self.workers_of(shard) or self.workers_of(None) or list(range(len(self.slots)))
            self.assignment[host] = self.least_loaded(candidates)
        return self.assignment[host]


def place_hosts(hosts: Sequence[str], shard_of: Callable[[str], str | None],
                workers_for: Callable[[str | None, int], int]) -> Placement:
    """Group ``hosts`` by shard (in inventory order) and give each group ``workers_for(shard, host count)``
    workers (at least one, never more than its hosts), its hosts round robin among them."""
    groups: dict[str | None, list[str]] = {}
    for host in hosts:
        groups.setdefault(shard_of(host), []).append(host)
    if not groups:
        groups[None] = []
    placement = Placement()
    for shard, members in groups.items():
        count = max(1, min(workers_for(shard, len(members)), len(members) or 1))
        first = len(placement.slots)
        placement.slots.extend([shard] * count)
        for index, host in enumerate(members):
            placement.assignment[host] = first + index % count
    return placement
