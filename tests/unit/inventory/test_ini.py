"""INI inventory files: sections, children, vars, inline host vars typed as Ansible types them, and errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.inventory import load_inventory
from runner.inventory.ini import parse_value
from tests.unit.inventory.files import write_tree

EXAMPLE = """
    # hosts before any section are ungrouped
    solo.example.com

    [web]
    web[01:03] http_port=80
    web04:2222 ansible_host=10.0.0.4   # a trailing comment

    [db]
    db-[a:b]

    [prod:children]
    web
    db

    [prod:vars]
    env=production
    max_clients=100
"""


def load(tmp_path: Path, text: str, name: str = "hosts"):
    write_tree(tmp_path, {name: text})
    return load_inventory([tmp_path / name])


def test_groups_hosts_and_children(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert list(inventory.hosts) == ["solo.example.com", "web01", "web02", "web03", "web04", "db-a", "db-b"]
    assert [host.name for host in inventory.groups["web"].hosts] == ["web01", "web02", "web03", "web04"]
    assert [child.name for child in inventory.groups["prod"].children] == ["web", "db"]
    assert [group.name for group in inventory.groups["web"].parents] == ["prod"]
    assert inventory.groups_dict()["ungrouped"] == ["solo.example.com"]
    assert inventory.groups_dict()["prod"] == ["web01", "web02", "web03", "web04", "db-a", "db-b"]


def test_inline_host_vars_and_port(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert inventory.hosts["web02"].vars == {"http_port": 80}
    assert inventory.hosts["web04"].vars == {"ansible_port": 2222, "ansible_host": "10.0.0.4"}


def test_group_vars_section_applies_through_children(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert inventory.groups["prod"].vars == {"env": "production", "max_clients": 100}
    assert inventory.host_vars("db-a")["env"] == "production"


@pytest.mark.parametrize(("text", "expected"), [
    ("5", 5),
    ("-3", -3),
    ("1.5", 1.5),
    ("True", True),
    ("False", False),
    ("None", None),
    ("[1, 'a']", [1, "a"]),
    ("{'k': 1}", {"k": 1}),
    ("'quoted'", "quoted"),
    ("true", "true"),  # not a Python literal: stays text, as in Ansible
    ("yes", "yes"),
    ("1.2.3.4", "1.2.3.4"),
    ("0644", "0644"),
    ("a b", "a b"),
    # what is not a variable type becomes one, as Ansible converts it
    ("1j", "1j"),
    ("...", "..."),
    ("b'raw'", "raw"),
    ("(1, 2)", [1, 2]),
    ("set()", []),
    ("[..., 1j, {1}, b'x', {'k': (3,)}]", ["...", "1j", [1], "x", {"k": [3]}]),
])
def test_values_typed_as_python_literals_where_possible(text: str, expected: object) -> None:
    assert parse_value(text) == expected
    assert type(parse_value(text)) is type(expected)


def test_typed_values_inline_and_in_vars_sections(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        [web]
        w1 count=3 ratio=0.5 on=True list="[1, 2]" name="two words" text='"5"' mode=0644

        [web:vars]
        retries=5
        flag=False
        motd=hello world
        quoted="5"
    """)
    assert inventory.hosts["w1"].vars == {"count": 3, "ratio": 0.5, "on": True, "list": [1, 2],
                                         "name": "two words", "text": "5", "mode": "0644"}
    assert inventory.groups["web"].vars == {"retries": 5, "flag": False, "motd": "hello world", "quoted": "5"}


def test_group_priority_from_vars_section_is_not_a_variable(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        [web]
        w1
        [web:vars]
        ansible_group_priority=10
    """)
    assert inventory.groups["web"].priority == 10
    assert "ansible_group_priority" not in inventory.host_vars("w1")


def test_vars_and_children_sections_before_the_group_is_listed(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        [prod:children]
        web
        [web:vars]
        port=80
        [web]
        w1
    """)
    assert inventory.host_vars("w1")["port"] == 80
    assert inventory.groups["web"].parents == [inventory.groups["prod"]]


def test_comments_and_semicolon_comments_are_skipped(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        ; a comment
        [web]  # comment after a header
        # another
        w1
    """)
    assert list(inventory.hosts) == ["w1"]


def test_host_in_two_groups_is_one_host(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        [web]
        h1 a=1
        [db]
        h1 b=2
    """)
    host = inventory.hosts["h1"]
    assert host.vars == {"a": 1, "b": 2}
    assert host.group_names() == ["db", "web"]


@pytest.mark.parametrize(("text", "line", "message"), [
    ("[web]\nw1\n[web:hosts2]\n", 3, "unknown type 'hosts2'"),
    ("[web\n", 1, "invalid section header"),
    ("[web]\nw1 novalue\n", 2, "expected key=value host variable, got 'novalue'"),
    ("[web]\nw1 x='open\n", 2, "cannot split host line"),
    ("[web:vars]\njustaword\n[web]\n", 2, "expected key=value in [web:vars]"),
    ("[p:children]\nbad name\n", 2, "expected a group name"),
    ("[p:children]\nmissing\n", 2, "names group 'missing', which is never defined"),
    ("[web:vars]\nx=1\n", 1, "section [web:vars] is for a group that is never defined"),
    ("[web]\nweb[3:1]\n", 2, "begin is greater than end"),
    ("[web]\nw1:\n", 2, "reserved for a port"),
    ("[a:children]\nb\n[b:children]\na\n", 4, "would make a loop"),
])
def test_errors_name_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    (tmp_path / "hosts").write_text(text, encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        load_inventory([tmp_path / "hosts"])
    error = caught.value
    assert message in error.message
    assert error.position is not None
    assert (error.position.path, error.position.line) == (str(tmp_path / "hosts"), line)


def test_yaml_without_extension_gets_a_hint(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        load(tmp_path, "all:\n  hosts:\n    h1:\n")
    assert caught.value.hint is not None and "looks like YAML" in caught.value.hint
    assert "hosts:1:1" in caught.value.render()


def test_unknown_section_type_suggests_the_right_one(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        load(tmp_path, "[web:child]\n")
    assert caught.value.hint == "did you mean 'children'?"
