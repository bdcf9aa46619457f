"""Host patterns, --limit and the implicit localhost."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import OptionError, UserError
from runner.inventory import Inventory, load_inventory
from runner.inventory.patterns import split_pattern
from tests.unit.inventory.files import write_tree

HOSTS = """
    lonely

    [web]
    web01
    web02
    web03

    [db]
    db01
    db02

    [prod]
    web01
    db01
    web03

    [stage]
    web02
    db02

    [dc:children]
    web
    db
"""


@pytest.fixture
def inventory(tmp_path: Path) -> Inventory:
    write_tree(tmp_path, {"hosts": HOSTS})
    return load_inventory([tmp_path / "hosts"])


def names(inventory: Inventory, pattern: str | list[str], limit: str | None = None) -> list[str]:
    return [host.name for host in inventory.get_hosts(pattern, limit=limit)]


@pytest.mark.parametrize(("pattern", "expected"), [
    ("all", ["lonely", "web01", "web02", "web03", "db01", "db02"]),
    ("*", ["lonely", "web01", "web02", "web03", "db01", "db02"]),
    ("web", ["web01", "web02", "web03"]),
    ("dc", ["web01", "web02", "web03", "db01", "db02"]),
    ("ungrouped", ["lonely"]),
    ("web0*", ["web01", "web02", "web03"]),
    ("*01", ["web01", "db01"]),
    ("db0?", ["db01", "db02"]),
    ("web:db", ["web01", "web02", "web03", "db01", "db02"]),
    ("db,web", ["db01", "db02", "web01", "web02", "web03"]),
    ("db, lonely", ["db01", "db02", "lonely"]),
    ("web:&prod", ["web01", "web03"]),
    ("dc:!stage", ["web01", "web03", "db01"]),
    ("web:db:&prod:!web03", ["web01", "db01"]),
    ("!db", ["lonely", "web01", "web02", "web03"]),
    ("&prod", ["web01", "web03", "db01"]),
    ("~web0[12]", ["web01", "web02"]),
    ("~(web|db)02", ["web02", "db02"]),
    ("web01:db02", ["web01", "db02"]),
    ("prod:web02", ["web01", "web03", "db01", "web02"]),
    ("web[0]", ["web01"]),
    ("web[-1]", ["web03"]),
    ("web[1:2]", ["web02", "web03"]),
    ("web[1:]", ["web02", "web03"]),
    ("dc[0:1]:&stage", ["web02"]),
    ("nothing", []),
    ("no*", []),
])
def test_patterns(inventory: Inventory, pattern: str, expected: list[str]) -> None:
    assert names(inventory, pattern) == expected


def test_a_list_of_patterns(inventory: Inventory) -> None:
    assert names(inventory, ["web", "!web02"]) == ["web01", "web03"]


def test_a_pattern_without_terms_selects_every_host(inventory: Inventory) -> None:
    """As Ansible's: ``''``, ``','`` and ``',,'`` have no terms, and no plain term means ``all``."""
    every = names(inventory, "all")
    for pattern in ("", ",", ",,", " , ", []):
        assert names(inventory, pattern) == every
    assert names(inventory, "web01, ,    ,db01") == ["web01", "db01"]


def test_a_limit_that_leaves_no_host_is_refused(inventory: Inventory) -> None:
    with pytest.raises(UserError, match="leaves us with no hosts to target"):
        inventory.check_limit("nosuchhost")
    with pytest.raises(UserError, match="leaves us with no hosts to target"):
        inventory.check_limit("db", "web")
    inventory.check_limit("web01")
    inventory.check_limit(None)
    inventory.check_limit("")


def test_a_limit_on_an_empty_inventory_is_not_refused(tmp_path: Path) -> None:
    empty = load_inventory([write_tree(tmp_path, {"hosts": ""}) / "hosts"])
    empty.check_limit("nosuchhost")


def test_subscript_out_of_range_is_an_error(inventory: Inventory) -> None:
    with pytest.raises(UserError, match="no hosts matched the subscripted pattern 'web\\[5\\]'"):
        inventory.get_hosts("web[5]")


def test_bad_regex_is_an_error(inventory: Inventory) -> None:
    with pytest.raises(UserError, match="invalid host pattern"):
        inventory.get_hosts("~web(")


@pytest.mark.parametrize(("pattern", "terms"), [
    ("a:b:&c:!d", ["a", "b", "&c", "!d"]),
    ("a, b ,c", ["a", "b", "c"]),
    ("web[1:3]", ["web[1:3]"]),
    ("web[1:3]:db", ["web[1:3]", "db"]),
    ("fe80::1", ["fe80::1"]),
    ("::1", ["::1"]),
])
def test_split_pattern(pattern: str, terms: list[str]) -> None:
    assert split_pattern(pattern) == terms


def test_limit_narrows_the_pattern(inventory: Inventory) -> None:
    assert names(inventory, "web", limit="prod") == ["web01", "web03"]
    assert names(inventory, "all", limit="db:!db02") == ["db01"]
    assert names(inventory, "web", limit="db") == []


def test_limit_from_file(inventory: Inventory, tmp_path: Path) -> None:
    (tmp_path / "retry").write_text("web02\n\ndb01\n", encoding="utf-8")
    assert names(inventory, "all", limit=f"@{tmp_path / 'retry'}") == ["web02", "db01"]
    assert names(inventory, "all", limit=f"@{tmp_path / 'retry'},lonely") == ["lonely", "web02", "db01"]


def test_limit_file_must_exist(inventory: Inventory, tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="limit file not found"):
        inventory.get_hosts("all", limit=f"@{tmp_path / 'missing'}")
    with pytest.raises(OptionError, match="must be a file"):
        inventory.get_hosts("all", limit=f"@{tmp_path}")


def test_implicit_localhost_only_when_named(inventory: Inventory) -> None:
    assert "localhost" not in names(inventory, "all")
    (localhost,) = inventory.get_hosts("localhost")
    assert localhost.implicit and localhost.name == "localhost"
    assert "localhost" not in inventory.hosts
    assert "localhost" not in inventory.groups_dict()["all"]
    assert names(inventory, "all") == names(inventory, "*")
    variables = inventory.host_vars("localhost")
    assert variables["ansible_connection"] == "local"
    assert variables["ansible_host"] == "127.0.0.1"
    assert variables["ansible_python_interpreter"]


def test_implicit_localhost_beside_other_hosts(inventory: Inventory) -> None:
    assert names(inventory, "localhost:web[0]") == ["localhost", "web01"]
    # one implicit localhost, whichever alias names it (as in Ansible)
    assert inventory.get_hosts("127.0.0.1") == inventory.get_hosts("localhost")


def test_localhost_from_the_inventory_is_used_as_is(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[local]\nlocalhost ansible_connection=ssh\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    (localhost,) = inventory.get_hosts("localhost")
    assert not localhost.implicit and localhost is inventory.hosts["localhost"]
    assert inventory.host_vars("localhost")["ansible_connection"] == "ssh"
    assert names(inventory, "all") == ["localhost"]


def test_a_localhost_alias_defined_in_the_inventory_stands_for_localhost(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "127.0.0.1\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    assert inventory.get_hosts("localhost") == [inventory.hosts["127.0.0.1"]]


def test_unknown_host_vars_is_a_user_error_with_a_suggestion(inventory: Inventory) -> None:
    with pytest.raises(UserError, match="unknown host 'web1'") as caught:
        inventory.host_vars("web1")
    assert caught.value.hint is not None and "web01" in caught.value.hint


def test_host_named_like_a_group_term_is_matched_as_a_host(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1\n[db]\nweb\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    assert names(inventory, "web") == ["web"]
    assert inventory.warnings == ["found both a group and a host called 'web'"]


def test_terms_that_match_nothing_are_named_one_by_one(inventory: Inventory) -> None:
    inventory.add_group("empty")  # an empty group is a match, as in Ansible
    assert inventory.unmatched_terms("web:&nothere:!gone:empty:all:web0*:~db\\d+:nohost*:localhost") == [
        "nothere", "gone", "nohost*"]


@pytest.mark.parametrize("mode", ["warning", "error", "ignore"])
def test_host_pattern_mismatch(inventory: Inventory, mode: str) -> None:
    from runner.inventory.pattern_mismatch import check_pattern

    warnings: list[str] = []
    if mode == "error":
        with pytest.raises(UserError, match="Could not match supplied host pattern, ignoring: nothere"):
            check_pattern(inventory, "web,nothere", mode, warnings.append)
    else:
        check_pattern(inventory, "web,nothere", mode, warnings.append)
    assert warnings == (["Could not match supplied host pattern, ignoring: nothere"] if mode == "warning" else [])
