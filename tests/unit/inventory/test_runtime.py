"""Changes while a playbook runs (add_host, add_group, add_child) and the caches they invalidate."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError, UserError
from runner.inventory import Inventory, load_inventory
from tests.unit.inventory.files import write_tree


@pytest.fixture
def inventory(tmp_path: Path) -> Inventory:
    write_tree(tmp_path, {
        "hosts": "[web]\nw1\n[web:vars]\nrole=web\n",
        "group_vars/new.yml": "from_file: new\n",
        "host_vars/n1.yml": "own_file: n1\n",
    })
    return load_inventory([tmp_path / "hosts"])


def test_add_host_to_new_groups(inventory: Inventory) -> None:
    assert inventory.get_hosts("new") == []
    host = inventory.add_host("n1", ["new", "web"], {"x": 1})
    assert host is inventory.hosts["n1"]
    assert inventory.groups["new"].parents == [inventory.groups["all"]]
    assert [h.name for h in inventory.get_hosts("new")] == ["n1"]
    assert [h.name for h in inventory.get_hosts("web")] == ["w1", "n1"]
    assert inventory.groups_dict()["new"] == ["n1"]
    variables = inventory.host_vars("n1")
    assert (variables["x"], variables["role"], variables["from_file"], variables["own_file"]) == (1, "web", "new", "n1")
    assert variables["group_names"] == ["new", "web"]


def test_add_host_without_groups_is_ungrouped_until_grouped(inventory: Inventory) -> None:
    inventory.add_host("n2")
    assert inventory.groups_dict()["ungrouped"] == ["n2"]
    inventory.add_host("n2", ["web"])
    assert inventory.groups_dict()["ungrouped"] == []
    assert inventory.hosts["n2"].groups == [inventory.groups["web"]]


def test_add_host_again_updates_variables(inventory: Inventory) -> None:
    assert "y" not in inventory.host_vars("w1")
    inventory.add_host("w1", variables={"y": 2})
    assert inventory.host_vars("w1")["y"] == 2


def test_add_group_and_add_child(inventory: Inventory) -> None:
    group = inventory.add_group("prod")
    assert inventory.add_group("prod") is group
    assert inventory.get_hosts("prod") == []
    inventory.add_child("prod", "web")
    assert [h.name for h in inventory.get_hosts("prod")] == ["w1"]
    assert inventory.host_vars("w1")["group_names"] == ["prod", "web"]
    assert inventory.groups["web"].depth == 2


def test_add_child_puts_a_host_in_a_group(inventory: Inventory) -> None:
    inventory.add_child("special", "w1")
    assert inventory.groups_dict()["special"] == ["w1"]


def test_add_child_refuses_loops_and_unknown_names(inventory: Inventory) -> None:
    inventory.add_child("a", "web")
    with pytest.raises(ParseError, match="would make a loop"):
        inventory.add_child("web", "a")
    with pytest.raises(ParseError, match="'all' cannot be a child"):
        inventory.add_child("web", "all")
    with pytest.raises(UserError, match="neither a group nor a host"):
        inventory.add_child("web", "ghost")


def test_refresh_after_editing_vars_directly(inventory: Inventory) -> None:
    assert inventory.host_vars("w1")["role"] == "web"
    inventory.groups["web"].vars["role"] = "changed"
    inventory.refresh()
    assert inventory.host_vars("w1")["role"] == "changed"


def test_batch_defers_bookkeeping_to_its_end(inventory: Inventory) -> None:
    with inventory.batch():
        inventory.add_host("b1")
        assert inventory.groups["ungrouped"].hosts == []
    assert [h.name for h in inventory.groups["ungrouped"].hosts] == ["b1"]


def test_defining_localhost_replaces_the_implicit_one(inventory: Inventory) -> None:
    implicit = inventory.get_host("localhost")
    assert implicit is not None and implicit.implicit
    defined = inventory.add_host("localhost", ["local"])
    assert inventory.get_hosts("localhost") == [defined]
    assert not defined.implicit


def test_new_inventory_has_all_and_ungrouped() -> None:
    inventory = Inventory()
    assert list(inventory.groups) == ["all", "ungrouped"]
    assert inventory.groups["ungrouped"].parents == [inventory.groups["all"]]
    assert inventory.groups_dict() == {"all": [], "ungrouped": []}


def test_a_host_dropped_by_a_reread_stays_findable_but_unselected(inventory: Inventory, tmp_path: Path) -> None:
    (tmp_path / "hosts2").write_text("[web]\nw2\n")
    reread = load_inventory([tmp_path / "hosts2"])
    reread.keep_dropped(inventory)
    host = reread.get_host("w1")
    assert host is not None and reread.host_vars("w1")["role"] == "web"
    assert [h.name for h in reread.get_hosts("all")] == ["w2"]
    assert reread.groups_dict()["web"] == ["w2"]
