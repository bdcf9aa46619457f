"""Group names that are not valid variable names, kept or replaced as transform_invalid_group_chars says."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.inventory import load_inventory
from tests.unit.inventory.files import write_tree

HOSTS = """
    [web-servers]
    web1

    [db]
    db1
"""
KEPT = "Invalid characters were found in group names but not replaced, use -vvvv to see details"
REPLACED = "Invalid characters were found in group names and automatically replaced, use -vvvv to see details"


@pytest.mark.parametrize(("policy", "group", "warnings"), [
    ("never", "web-servers", [KEPT]),
    ("always", "web_servers", [REPLACED]),
    ("ignore", "web-servers", []),
    ("silently", "web_servers", []),
])
def test_invalid_group_names(tmp_path: Path, policy: str, group: str, warnings: list[str]) -> None:
    inventory = load_inventory([write_tree(tmp_path, {"hosts": HOSTS}) / "hosts"], invalid_group_chars=policy)
    assert [host.name for host in inventory.get_hosts(group)] == ["web1"]
    assert set(inventory.groups) == {"all", "ungrouped", group, "db"}
    assert inventory.warnings == warnings


def test_a_group_added_while_running_follows_the_same_policy(tmp_path: Path) -> None:
    inventory = load_inventory([write_tree(tmp_path, {"hosts": HOSTS}) / "hosts"], invalid_group_chars="always")
    assert inventory.add_group("os-Debian 12").name == "os_Debian_12"
    assert inventory.add_group("1st").name == "_st"
