"""Placing hosts on the Ray executor's workers (runner/executor/placement.py): spread evenly by default, a shard's
hosts on its own workers, hosts added during the run on the least loaded worker that may hold them."""

from __future__ import annotations

from runner.executor.placement import place_hosts, shard_resource

SHARDS = {"db1": "dc-east", "db2": "dc-east", "web3": None, "web1": None, "web2": None, "db3": "dc-east"}


def test_hosts_without_a_shard_are_spread_evenly_in_inventory_order() -> None:
    placement = place_hosts(["a", "b", "c", "d", "e"], lambda host: None, lambda shard, count: 2)
    assert placement.slots == [None, None]
    assert placement.assignment == {"a": 0, "b": 1, "c": 0, "d": 1, "e": 0}


def test_a_shards_hosts_go_to_its_own_workers_only() -> None:
    placement = place_hosts(list(SHARDS), SHARDS.get, lambda shard, count: 1 if shard else 2)
    assert placement.slots == ["dc-east", None, None]
    assert {host for host, worker in placement.assignment.items() if worker == 0} == {"db1", "db2", "db3"}
    assert {host for host, worker in placement.assignment.items() if worker > 0} == {"web1", "web2", "web3"}


def test_a_group_never_has_more_workers_than_hosts_nor_none() -> None:
    assert place_hosts(["a"], lambda host: None, lambda shard, count: 8).slots == [None]
    assert place_hosts(["a"], lambda host: None, lambda shard, count: 0).slots == [None]
    assert place_hosts([], lambda host: None, lambda shard, count: 4).slots == [None]


def test_an_added_host_goes_to_the_least_loaded_worker_of_its_shard_else_of_the_unsharded() -> None:
    placement = place_hosts(list(SHARDS), SHARDS.get, lambda shard, count: 1 if shard else 2)
    assert placement.add_host("db4", "dc-east") == 0
    assert placement.add_host("web4", None) == 2  # web1, web3 on worker 1; web2 on worker 2
    assert placement.add_host("far", "dc-west") in (1, 2)  # no worker of its shard: an unsharded one
    assert placement.add_host("db4", None) == 0  # a host is never moved


def test_a_shard_is_a_ray_custom_resource() -> None:
    assert shard_resource("dc-east") == "shard:dc-east"
