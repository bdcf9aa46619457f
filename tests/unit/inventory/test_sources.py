"""Inventory sources: directories of files, several sources merged, host lists, missing sources."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.inventory import load_inventory
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


def test_without_any_unparsed_is_failed_a_bad_file_is_warned_about_and_the_others_are_read(tmp_path: Path) -> None:
    (tmp_path / "inv").mkdir()
    (tmp_path / "inv" / "a.yml").write_text("all:\n  hosts:\n    1234: {}\n", encoding="utf-8")
    (tmp_path / "inv" / "b").write_text("[web]\nweb1\n", encoding="utf-8")
    inventory = load_inventory([tmp_path / "inv", tmp_path / "nowhere"], any_unparsed_is_failed=False)
    assert list(inventory.hosts) == ["web1"]
    assert inventory.parsed == [str(tmp_path / "inv" / "b")]
    assert inventory.unparsed == [str(tmp_path / "inv" / "a.yml"), str(tmp_path / "nowhere")]
    assert [warning.split(":")[0] for warning in inventory.warnings] == [
        "Failed to parse inventory with 'yaml' plugin", f"Unable to parse {tmp_path}/inv/a.yml as an inventory "
        f"source", f"Unable to parse {tmp_path}/nowhere as an inventory source (inventory source not found, and not "
        "a comma-separated host list such as 'web1,web2,')"]
    assert "Host pattern 1234 must be a string" in inventory.warnings[0]


def test_a_host_list_keeps_a_range_without_its_end_as_written_and_says_so_in_a_note(tmp_path: Path) -> None:
    inventory = load_inventory(["web[1:],db[1:2],"], any_unparsed_is_failed=False)
    assert list(inventory.hosts) == ["web[1:]", "db1", "db2"]
    assert inventory.notes == ["Unable to parse address from hostname, leaving unchanged: invalid host range '[1:]' "
                               "in 'web[1:]': the end is missing (host range must specify end value)"]
    inventory = load_inventory(["web[1:j],"], any_unparsed_is_failed=False)
    assert inventory.hosts == {} and inventory.unparsed == ["web[1:j],"]
    assert inventory.warnings[0].startswith("Failed to parse inventory with 'advanced_host_list' plugin: ")


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



def test_a_folder_with_no_inventory_file_is_a_source_that_did_not_parse(tmp_path: Path) -> None:
    write_tree(tmp_path / "inv", {"hosts": "[web]\nw1\n", "group_vars/all.yml": "x: 1\n"})
    (tmp_path / "inv" / "empty").mkdir()
    (tmp_path / "alone").mkdir()
    inventory = load_inventory([tmp_path / "inv", tmp_path / "alone"], any_unparsed_is_failed=False)
    assert list(inventory.hosts) == ["w1"]
    assert inventory.unparsed == [str(tmp_path / "inv" / "empty"), str(tmp_path / "alone")]
    assert inventory.warnings == [f"Unable to parse {tmp_path}/inv/empty as an inventory source",
                                  f"Unable to parse {tmp_path}/alone as an inventory source"]
    with pytest.raises(ParseError, match=r"Completely failed to parse inventory source .*/inv/empty"):
        load_inventory([tmp_path / "inv"], any_unparsed_is_failed=True)
