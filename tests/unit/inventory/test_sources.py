"""Inventory sources: directories of files, several sources merged, host lists, missing sources."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from runner.errors import ParseError, UserError
from runner.inventory import load_inventory
from runner.inventory.unparsed import UnparsedPolicy
from tests.unit.inventory.files import write_tree


def test_directory_reads_every_inventory_file_in_sorted_order(tmp_path: Path) -> None:
    write_tree(tmp_path / "inv", {
        "10-web": "[web]\nw1\n",
        "20-db.yml": "db:\n  hosts:\n    d1:\n",
        "30-extra.ini": "[cache]\nc1\n",
        "sub/40-more.yaml": "all:\n  hosts:\n    m1:\n",
    })
    inventory = load_inventory([tmp_path / "inv"])
    assert list(inventory.hosts) == ["w1", "d1", "c1", "m1"]
    assert inventory.sources == [tmp_path / "inv"]


def test_directory_skips_ignored_files_and_vars_folders(tmp_path: Path) -> None:
    write_tree(tmp_path / "inv", {
        "hosts": "[web]\nw1\n",
        "hosts~": "[web]\nbackup\n",
        "hosts.orig": "[web]\norig\n",
        "hosts.retry": "retry\n",
        "notes.md": "# not an inventory\n",
        "readme.txt": "not an inventory\n",
        "ansible.cfg": "[defaults]\n",
        ".hidden": "[web]\nhidden\n",
        "group_vars/web.yml": "port: 80\n",
        "host_vars/w1": "name: one\n",
    })
    inventory = load_inventory([tmp_path / "inv"])
    assert list(inventory.hosts) == ["w1"]
    assert inventory.host_vars("w1")["port"] == 80
    assert inventory.host_vars("w1")["name"] == "one"


def test_several_sources_are_merged_in_order(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "a/hosts": "[web]\nw1 color=red\n",
        "b/hosts.yml": "all:\n  children:\n    web:\n      hosts:\n        w1: {color: blue}\n        w2:\n",
    })
    inventory = load_inventory([tmp_path / "a" / "hosts", tmp_path / "b" / "hosts.yml"])
    assert list(inventory.hosts) == ["w1", "w2"]
    assert inventory.hosts["w1"].vars == {"color": "blue"}
    assert inventory.sources == [tmp_path / "a" / "hosts", tmp_path / "b" / "hosts.yml"]


def test_a_host_remembers_the_file_that_first_named_it(tmp_path: Path) -> None:
    write_tree(tmp_path / "inv", {"one": "[web]\nw1\n", "sub/two": "[db]\nw1\nd1\n"})
    inventory = load_inventory([tmp_path / "inv"])
    assert inventory.host_vars("w1")["inventory_file"] == str(tmp_path / "inv" / "one")
    assert inventory.host_vars("w1")["inventory_dir"] == str(tmp_path / "inv")
    assert inventory.host_vars("d1")["inventory_dir"] == str(tmp_path / "inv" / "sub")


def test_relative_source_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_tree(tmp_path, {"hosts": "h1\n"})
    monkeypatch.chdir(tmp_path)
    inventory = load_inventory(["hosts"])
    assert inventory.sources == [tmp_path / "hosts"]
    assert inventory.host_vars("h1")["inventory_file"] == str(tmp_path / "hosts")


def test_comma_separated_host_list(tmp_path: Path) -> None:
    inventory = load_inventory(["web1, web2:2222,", "single,"])
    assert list(inventory.hosts) == ["web1", "web2", "single"]
    assert inventory.groups_dict()["ungrouped"] == ["web1", "web2", "single"]
    assert inventory.host_vars("web2")["ansible_port"] == 2222
    assert inventory.host_vars("web1")["inventory_file"] is None
    assert inventory.sources == []


def test_missing_source_is_a_parse_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match=r"inventory source not found: .*nowhere"):
        load_inventory([tmp_path / "nowhere"])


def test_an_executable_inventory_without_a_shebang_is_read_as_ini(tmp_path: Path) -> None:
    hosts = tmp_path / "hosts"
    hosts.write_text("[web]\nweb1\n", encoding="utf-8")
    os.chmod(hosts, 0o755)  # as on filesystems that mark every file executable
    assert load_inventory([hosts]).groups_dict()["web"] == ["web1"]


def test_empty_inventory_has_all_and_ungrouped(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "# nothing yet\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    assert inventory.groups_dict() == {"all": [], "ungrouped": []}
    assert inventory.get_hosts() == []


# -- Ansible's rules for sources that cannot be read, when the user sets unparsed_is_failed or
# any_unparsed_is_failed --------------------------------------------------------------------------------------------

def _hosts_file(tmp_path: Path) -> Path:
    hosts = tmp_path / "hosts"
    hosts.write_text("[web]\nweb1\n")
    return hosts


def test_a_missing_source_is_a_warning_when_another_is_read(tmp_path: Path) -> None:
    policy = UnparsedPolicy(none_parsed_fails=True, any_unparsed_fails=False)
    inventory = load_inventory([tmp_path / "missing", _hosts_file(tmp_path)], unparsed=policy)
    assert list(inventory.hosts) == ["web1"]
    assert f"Unable to parse {tmp_path / 'missing'} as an inventory source" in inventory.warnings


def test_no_source_read_fails_or_leaves_localhost_as_unparsed_is_failed_says(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="No inventory was parsed, please check your configuration"):
        load_inventory([tmp_path / "missing"], unparsed=UnparsedPolicy(none_parsed_fails=True,
                                                                       any_unparsed_fails=False))
    inventory = load_inventory([tmp_path / "missing"], unparsed=UnparsedPolicy(none_parsed_fails=False,
                                                                               any_unparsed_fails=False))
    assert inventory.hosts == {}
    assert inventory.warnings[-1] == "No inventory was parsed, only implicit localhost is available"


def test_any_unparsed_is_failed_makes_an_empty_directory_inside_a_source_an_error(tmp_path: Path) -> None:
    source = tmp_path / "inventory"
    source.mkdir()
    _hosts_file(source)
    (source / "empty").mkdir()
    tolerant = load_inventory([source], unparsed=UnparsedPolicy(none_parsed_fails=True, any_unparsed_fails=False))
    assert list(tolerant.hosts) == ["web1"]
    with pytest.raises(UserError, match=r"Completely failed to parse inventory source .*empty"):
        load_inventory([source], unparsed=UnparsedPolicy(none_parsed_fails=False, any_unparsed_fails=True))


def test_a_broken_source_keeps_its_position_in_the_warning(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("all:\n  hosts:\n    h1: 5\n")
    inventory = load_inventory([broken, _hosts_file(tmp_path)],
                               unparsed=UnparsedPolicy(none_parsed_fails=True, any_unparsed_fails=False))
    assert any(warning.startswith(f"Failed to parse inventory source {broken}: {broken}:3")
               for warning in inventory.warnings), inventory.warnings
