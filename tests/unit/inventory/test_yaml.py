"""YAML and JSON inventory files: nested groups, hosts with and without variables, and errors with positions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.inventory import load_inventory
from tests.unit.inventory.files import write_tree

EXAMPLE = """
    all:
      hosts:
        bastion:
      vars:
        ntp: pool.ntp.org
      children:
        web:
          hosts:
            web[01:02]:
              http_port: 80
            web03:2222:
        prod:
          children:
            web:
            db:
              hosts:
                db1: {ansible_host: 10.0.0.5}
          vars:
            env: production
            ansible_group_priority: 3
"""


def load(tmp_path: Path, text: str, name: str = "hosts.yml"):
    write_tree(tmp_path, {name: text})
    return load_inventory([tmp_path / name])


def test_nested_groups_and_hosts(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert list(inventory.hosts) == ["bastion", "web01", "web02", "web03", "db1"]
    assert [child.name for child in inventory.groups["all"].children] == ["ungrouped", "web", "prod"]
    assert sorted(group.name for group in inventory.groups["web"].parents) == ["all", "prod"]
    assert inventory.groups_dict()["prod"] == ["web01", "web02", "web03", "db1"]


def test_host_with_null_value_has_no_vars_and_is_ungrouped_when_only_in_all(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert inventory.hosts["bastion"].vars == {}
    assert inventory.groups_dict()["ungrouped"] == ["bastion"]
    assert inventory.hosts["bastion"].group_names() == ["ungrouped"]


def test_host_vars_ranges_and_ports(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert inventory.hosts["web02"].vars == {"http_port": 80}
    assert inventory.hosts["web03"].vars == {"ansible_port": 2222}
    assert inventory.hosts["db1"].vars == {"ansible_host": "10.0.0.5"}


def test_group_vars_and_priority(tmp_path: Path) -> None:
    inventory = load(tmp_path, EXAMPLE)
    assert inventory.groups["prod"].vars == {"env": "production"}
    assert inventory.groups["prod"].priority == 3
    assert inventory.host_vars("web01")["env"] == "production"
    assert inventory.host_vars("bastion")["ntp"] == "pool.ntp.org"


def test_yaml_types_are_kept(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        all:
          hosts:
            h1:
              mode: 0644
              enabled: on
              country: NO
              code: "NO"
              ports: [80, 443]
    """)
    assert inventory.hosts["h1"].vars == {"mode": 0o644, "enabled": True, "country": False, "code": "NO",
                                          "ports": [80, 443]}


def test_top_level_groups_other_than_all(tmp_path: Path) -> None:
    inventory = load(tmp_path, """
        web:
          hosts: w1
        db:
          hosts:
            d1:
    """)
    assert inventory.groups_dict()["web"] == ["w1"]
    assert inventory.groups["db"].parents == [inventory.groups["all"]]


def test_json_inventory(tmp_path: Path) -> None:
    data = {"all": {"children": {"web": {"hosts": {"w1": {"port": 80}}}}}}
    inventory = load(tmp_path, json.dumps(data, indent="\t"), name="hosts.json")
    assert inventory.hosts["w1"].vars == {"port": 80}


def test_json_syntax_error_has_line_and_column(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        load(tmp_path, '{\n\t"all": {\n\t\t"hosts": {"h1" 1}\n\t}\n}\n', name="hosts.json")
    assert "Expecting ':' delimiter" in caught.value.message
    assert caught.value.position is not None
    assert (caught.value.position.line, caught.value.position.column) == (3, 18)


def test_yaml_syntax_error_has_line(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        load(tmp_path, "all:\n  hosts:\n    h1: [\n")
    assert caught.value.position is not None and caught.value.position.path == str(tmp_path / "hosts.yml")
    assert caught.value.position.line is not None


@pytest.mark.parametrize(("text", "line", "message", "hint"), [
    ("all:\n  host:\n    h1:\n", 2, "unknown key 'host' in group 'all'", "did you mean 'hosts'?"),
    ("all:\n  hosts:\n    - h1\n", 2, "'hosts' of group 'all' must be a mapping", None),
    ("all:\n  children:\n    web: [a]\n", 3, "group 'web' must be a mapping", None),
    ("all:\n  hosts:\n    h1: 5\n", 3, "host 'h1' must map to its variables", None),
    ("all:\n  vars:\n    ansible_group_priority: high\n", 3, "must be an integer", None),
    ("all:\n  hosts:\n    web[2:1]:\n", 3, "begin is greater than end", None),
    ("plugin: nmap\n", 1, "inventory plugin 'nmap': ansible-core routes it to community.general.nmap; the "
                          "collection community.general is not installed", None),
    ("all:\n  hosts:\n    1234:\n", 3,
     "Host pattern 1234 must be a string. Enclose integers/floats in quotation marks.", None),
    ("- all\n", 1, "must be a mapping of group names", None),
])
def test_structure_errors_point_at_the_key(tmp_path: Path, text: str, line: int, message: str,
                                           hint: str | None) -> None:
    (tmp_path / "hosts.yml").write_text(text, encoding="utf-8")
    with pytest.raises(ParseError) as caught:
        load_inventory([tmp_path / "hosts.yml"])
    error = caught.value
    assert message in error.message
    assert error.hint == hint
    assert error.position is not None and error.position.line == line


def test_empty_yaml_inventory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="empty"):
        load(tmp_path, "# nothing here\n")
