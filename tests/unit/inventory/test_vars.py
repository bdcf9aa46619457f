"""group_vars/ and host_vars/ files and the order in which a host's variables merge."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.inventory import load_inventory
from tests.unit.inventory.files import write_tree

# Every place a variable can come from, lowest precedence first (Ansible's default order).
LEVELS = [
    ("inventory [all:vars]", "inv/hosts", "[all:vars]\nx={value}\n"),
    ("inventory [web:vars]", "inv/hosts", "[web:vars]\nx={value}\n"),
    ("inventory group_vars/all", "inv/group_vars/all.yml", "x: {value}\n"),
    ("playbook group_vars/all", "play/group_vars/all.yml", "x: {value}\n"),
    ("inventory group_vars/web", "inv/group_vars/web.yml", "x: {value}\n"),
    ("playbook group_vars/web", "play/group_vars/web.yml", "x: {value}\n"),
    ("inventory host var", "inv/hosts", "[web]\nw1 x={value}\n"),
    ("inventory host_vars/w1", "inv/host_vars/w1.yml", "x: {value}\n"),
    ("playbook host_vars/w1", "play/host_vars/w1.yml", "x: {value}\n"),
]


@pytest.mark.parametrize("top", range(len(LEVELS)), ids=[level[0] for level in LEVELS])
def test_each_level_beats_every_level_below(tmp_path: Path, top: int) -> None:
    files: dict[str, str] = {"inv/hosts": "[web]\nw1\n"}
    for index, (_, path, template) in enumerate(LEVELS[:top + 1]):
        files[path] = files.get(path, "") + template.format(value=f"level{index}")
    write_tree(tmp_path, files)
    inventory = load_inventory([tmp_path / "inv" / "hosts"], playbook_dir=tmp_path / "play")
    assert inventory.host_vars("w1")["x"] == f"level{top}"


def test_deeper_group_wins_over_its_parent_whatever_the_names(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": """
        [zzz:children]
        aaa
        [aaa]
        h1
        [zzz:vars]
        x=parent
        [aaa:vars]
        x=child
    """})
    assert load_inventory([tmp_path / "hosts"]).host_vars("h1")["x"] == "child"


def test_depth_is_the_longest_path_from_all(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": """
        [a:children]
        b
        [b:children]
        c
        [c]
        h1
        [d]
        h1
        [c:vars]
        x=c_at_depth_3
        [d:vars]
        x=d_at_depth_1
    """})
    inventory = load_inventory([tmp_path / "hosts"])
    assert [inventory.groups[name].depth for name in ("all", "a", "b", "c", "d")] == [0, 1, 2, 3, 1]
    assert inventory.host_vars("h1")["x"] == "c_at_depth_3"


def test_higher_priority_wins_at_the_same_depth(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": """
        [alpha]
        h1
        [beta]
        h1
        [alpha:vars]
        x=alpha
        ansible_group_priority=10
        [beta:vars]
        x=beta
    """})
    assert load_inventory([tmp_path / "hosts"]).host_vars("h1")["x"] == "alpha"


def test_later_name_wins_at_the_same_depth_and_priority(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": """
        [beta]
        h1
        [alpha]
        h1
        [beta:vars]
        x=beta
        [alpha:vars]
        x=alpha
    """})
    assert load_inventory([tmp_path / "hosts"]).host_vars("h1")["x"] == "beta"


def test_group_vars_files_follow_the_same_group_order(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "hosts": "[beta]\nh1\n[alpha]\nh1\n[alpha:vars]\nansible_group_priority=2\n",
        "group_vars/alpha.yml": "x: alpha\n",
        "group_vars/beta.yml": "x: beta\n",
    })
    assert load_inventory([tmp_path / "hosts"]).host_vars("h1")["x"] == "alpha"


def test_merge_replaces_whole_top_level_values(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "hosts": "[web]\nw1\n",
        "group_vars/all.yml": "settings: {a: 1, b: 2}\n",
        "group_vars/web.yml": "settings: {a: 3}\n",
    })
    assert load_inventory([tmp_path / "hosts"]).host_vars("w1")["settings"] == {"a": 3}


@pytest.mark.parametrize("name", ["web", "web.yml", "web.yaml", "web.json"])
def test_vars_file_spellings(tmp_path: Path, name: str) -> None:
    text = '{"port": 80}\n' if name.endswith(".json") else "port: 80\n"
    write_tree(tmp_path, {"hosts": "[web]\nw1\n", f"group_vars/{name}": text})
    assert load_inventory([tmp_path / "hosts"]).host_vars("w1")["port"] == 80


def test_first_spelling_found_is_the_only_one_read(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "hosts": "[web]\nw1\n",
        "group_vars/web.yml": "port: 80\n",
        "group_vars/web.yaml": "port: 8080\nextra: true\n",
    })
    variables = load_inventory([tmp_path / "hosts"]).host_vars("w1")
    assert variables["port"] == 80 and "extra" not in variables


def test_vars_directory_merges_its_files_in_sorted_order(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "hosts": "[web]\nw1\n",
        "group_vars/web/10-base.yml": "port: 80\nname: base\n",
        "group_vars/web/20-override.yaml": "port: 8080\n",
        "group_vars/web/30-nested/value": "deep: true\n",
        "group_vars/web/40.json": '{"from_json": 1}',
        "group_vars/web/.hidden.yml": "port: 1\n",
        "group_vars/web/50.yml~": "port: 2\n",
        "group_vars/web/notes.txt": "port: 3\n",
    })
    variables = load_inventory([tmp_path / "hosts"]).host_vars("w1")
    assert (variables["port"], variables["name"], variables["deep"], variables["from_json"]) == (8080, "base", True, 1)


def test_host_vars_directory(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "w1\n", "host_vars/w1/a.yml": "a: 1\n", "host_vars/w1/b.yml": "a: 2\nb: 2\n"})
    variables = load_inventory([tmp_path / "hosts"]).host_vars("w1")
    assert (variables["a"], variables["b"]) == (2, 2)


def test_vars_beside_each_source_later_source_wins(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "one/hosts": "[web]\nw1\n",
        "one/group_vars/web.yml": "x: one\ny: one\n",
        "two/hosts": "[web]\nw2\n",
        "two/group_vars/web.yml": "x: two\n",
    })
    inventory = load_inventory([tmp_path / "one" / "hosts", tmp_path / "two" / "hosts"])
    assert (inventory.host_vars("w1")["x"], inventory.host_vars("w1")["y"]) == ("two", "one")


def test_vars_file_that_is_not_a_mapping_is_an_error(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1\n", "group_vars/web.yml": "- port\n"})
    with pytest.raises(ParseError, match="must be a mapping") as caught:
        load_inventory([tmp_path / "hosts"])
    assert caught.value.position is not None
    assert caught.value.position.path == str(tmp_path / "group_vars" / "web.yml")


def test_broken_vars_file_is_reported_when_loading(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1\n", "play/host_vars/w1.yml": "a: [\n"})
    with pytest.raises(ParseError) as caught:
        load_inventory([tmp_path / "hosts"], playbook_dir=tmp_path / "play")
    assert caught.value.position is not None and caught.value.position.path.endswith("w1.yml")


def test_empty_vars_file_defines_nothing(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1\n", "group_vars/web.yml": "# nothing\n"})
    assert "x" not in load_inventory([tmp_path / "hosts"]).host_vars("w1")


def test_magic_variables(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1.example.com\n[prod:children]\nweb\n"})
    variables = load_inventory([tmp_path / "hosts"]).host_vars("w1.example.com")
    assert variables["inventory_hostname"] == "w1.example.com"
    assert variables["inventory_hostname_short"] == "w1"
    assert variables["group_names"] == ["prod", "web"]
    assert variables["inventory_file"] == str(tmp_path / "hosts")
    assert variables["inventory_dir"] == str(tmp_path)


def test_implicit_localhost_gets_all_vars_but_no_other_group_vars(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "hosts": "[web]\nw1\n[all:vars]\nfrom_all=1\n[web:vars]\nfrom_web=1\n",
        "group_vars/all.yml": "file_all: 1\n",
        "host_vars/localhost.yml": "own: 1\n",
    })
    variables = load_inventory([tmp_path / "hosts"]).host_vars("localhost")
    assert {"from_all", "file_all", "own"} <= variables.keys()
    assert "from_web" not in variables
    assert variables["ansible_connection"] == "local"
    assert variables["group_names"] == []


def test_setting_the_playbook_dir_later_brings_its_vars(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "[web]\nw1\n", "play/group_vars/web.yml": "x: play\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    assert "x" not in inventory.host_vars("w1")
    inventory.playbook_dir = tmp_path / "play"
    assert inventory.host_vars("w1")["x"] == "play"


def test_returned_variables_are_a_copy(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts": "w1 x=1\n"})
    inventory = load_inventory([tmp_path / "hosts"])
    inventory.host_vars("w1")["x"] = 2
    assert inventory.host_vars("w1")["x"] == 1
