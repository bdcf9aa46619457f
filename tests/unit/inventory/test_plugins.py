"""Inventory plugins and scripts as Ansible's: constructed, generator, the auto loader, advanced_host_list, and
dynamic inventory scripts. Where ansible-core is installed, ansible-inventory --list reads the same files and
the outputs must agree (modulo ordering)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from runner.cli.inventory import main as inventory_main
from runner.errors import ParseError
from runner.inventory import load_inventory, script_source
from tests.support.ansible_core import ansible_binary

DATA = Path(__file__).parents[2] / "data" / "inventory_plugins"


def ours(*args: str) -> str:
    result = CliRunner().invoke(inventory_main, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def comparable(listing: dict[str, Any]) -> dict[str, Any]:
    """--list output without ansible-core's markers (profile, templated strings marked unsafe), lists sorted."""
    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            if set(value) == {"__ansible_unsafe"}:
                return value["__ansible_unsafe"]
            return {key: plain(item) for key, item in value.items() if key != "profile"}
        return sorted(plain(item) for item in value) if isinstance(value, list) else value

    return plain(listing)


@pytest.mark.parametrize("source", ["01-hosts.ini,02-constructed.yml,03-generator.yml,04-script.py", "."])
def test_ansible_inventory_lists_the_same(source: str) -> None:
    args = [arg for name in source.split(",") for arg in ("-i", str(DATA / name))]
    done = subprocess.run([str(ansible_binary("ansible-inventory")), *args, "--list"], capture_output=True,
                          text=True, timeout=300, check=True)
    assert comparable(json.loads(ours(*args, "--list"))) == comparable(json.loads(done.stdout))


def test_constructed_composes_variables_and_groups() -> None:
    inventory = load_inventory([DATA / "01-hosts.ini", DATA / "02-constructed.yml"])
    groups = inventory.groups_dict()
    assert inventory.host_vars("web1")["os_upper"] == "DEBIAN"
    assert inventory.host_vars("db1")["address"] == "none"
    assert "nope" not in inventory.host_vars("web1")  # not strict: a failing expression is skipped
    assert groups["debian_hosts"] == ["web1", "db1"]
    assert groups["os_ubuntu"] == ["web2"]
    assert groups["_x86_64"] == ["web1"]  # no prefix: a leading separator, as Ansible's
    assert groups["role_none"] == ["db1"]  # default_value for an empty key
    assert groups["_tier"] == ["web2", "db1"]  # trailing_separator: false
    assert groups["environments"] == ["web1", "web2", "db1"]  # parent_group
    assert "env_prod" in [child.name for child in inventory.groups["environments"].children]
    assert groups["member_web"] == ["web1", "web2"]  # group_names as before the constructed groups
    assert "broken" not in groups


def test_constructed_strict_makes_a_failing_expression_an_error(tmp_path: Path) -> None:
    config = tmp_path / "strict.yml"
    config.write_text("plugin: constructed\nstrict: true\ncompose:\n  x: missing + 1\n")
    with pytest.raises(ParseError, match="could not set x for host web1"):
        load_inventory([DATA / "01-hosts.ini", config])


def test_constructed_extra_vars_only_with_use_extra_vars(tmp_path: Path) -> None:
    config = tmp_path / "extra.yml"
    config.write_text("plugin: constructed\nuse_extra_vars: true\ncompose:\n  site: site_name\n")
    inventory = load_inventory(["web1,", config], extra_vars={"site_name": "paris"})
    assert inventory.host_vars("web1")["site"] == "paris"


@pytest.mark.parametrize(("text", "message"), [
    ("plugin: constructed\ncompse: {}\n", "2:1: unknown option 'compse' for inventory plugin 'constructed' "
                                          "(did you mean 'compose'?)"),
    ("plugin: constructed\nkeyed_groups:\n  - prefix: x\n", "a keyed_groups entry needs a 'key'"),
    ("plugin: constructed\nkeyed_groups:\n  - key: a\n    default_value: x\n    trailing_separator: false\n",
     "default_value and trailing_separator cannot both be set"),
    ("plugin: constructed\ngroups: [a]\n", "option 'groups' of inventory plugin 'constructed' must be a mapping"),
    ("plugin: generator\nlayers: {a: [1]}\n", "inventory plugin 'generator' needs 'hosts'"),
])
def test_bad_plugin_configurations_are_errors_at_their_place(tmp_path: Path, text: str, message: str) -> None:
    config = tmp_path / "plugin.yml"
    config.write_text(text)
    with pytest.raises(ParseError) as raised:
        load_inventory([config])
    assert message in str(raised.value)


def test_generator_makes_every_combination_with_parents_and_vars() -> None:
    inventory = load_inventory([DATA / "03-generator.yml"])
    assert len(inventory.hosts) == 8
    assert inventory.groups_dict()["build_web"] == ["build_web_dev_runner", "build_web_prod_runner"]
    assert inventory.host_vars("launch_api_prod_runner")["application"] == "api"
    assert inventory.host_vars("launch_api_prod_runner")["environment"] == "prod"


def test_a_host_list_expands_ranges_as_advanced_host_list() -> None:
    inventory = load_inventory(["web[1:3],db:2222,"])
    assert list(inventory.hosts) == ["web1", "web2", "web3", "db"]
    assert inventory.host_vars("db")["ansible_port"] == 2222


# inventory scripts ------------------------------------------------------------------------------------------------

def script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "inventory.sh"
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def test_a_script_with_meta_runs_once(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    path = script(tmp_path, f'echo "$@" >> {calls}\n'
                            'echo \'{"web": {"hosts": ["w1"], "vars": {"a": 1}}, '
                            '"_meta": {"hostvars": {"w1": {"b": 2}}}}\'\n')
    inventory = load_inventory([path])
    assert (inventory.host_vars("w1")["a"], inventory.host_vars("w1")["b"]) == (1, 2)
    assert calls.read_text() == "--list\n"


def test_a_script_without_meta_is_asked_for_each_host(tmp_path: Path) -> None:
    calls = tmp_path / "calls"
    path = script(tmp_path, f'echo "$@" >> {calls}\n'
                            'if [ "$1" = --list ]; then echo \'{"web": ["w1", "w2"], "db": {"hosts": ["d1"]}}\'; '
                            'else echo "{\\"me\\": \\"$2\\"}"; fi\n')
    inventory = load_inventory([path])
    assert inventory.host_vars("w2")["me"] == "w2"
    assert calls.read_text().splitlines() == ["--list", "--host w1", "--host w2", "--host d1"]


@pytest.mark.parametrize(("body", "message"), [
    ("echo 'cannot reach the API' >&2\nexit 3\n", "--list: it exited 3; its standard error:\ncannot reach the API"),
    ("echo '{\"web\": [}'\n", "--list: its output is not JSON: Expecting value at line 1 column 10"),
    ("echo '[1, 2]'\n", "--list: expected a JSON object of groups, got an array"),
    ("echo '{\"web\": {\"hosts\": \"w1\"}}'\n", "--list: 'web.hosts' must be a JSON array, got a string"),
    ("echo '{\"_meta\": {\"hostvars\": []}}'\n", "--list: '_meta.hostvars' must be an object of hosts, got an array"),
])
def test_a_failing_script_is_a_clear_error(tmp_path: Path, body: str, message: str) -> None:
    path = script(tmp_path, body)
    with pytest.raises(ParseError) as raised:
        load_inventory([path])
    assert f"{path}: inventory script, run with {message}" in str(raised.value)


def test_a_script_that_hangs_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(script_source, "SCRIPT_TIMEOUT", 1)
    path = script(tmp_path, "exec sleep 60\n")
    with pytest.raises(ParseError, match="did not finish within 1 s"):
        load_inventory([path])


def test_a_script_error_is_a_warning_or_exit_4_without_a_traceback(tmp_path: Path) -> None:
    path = script(tmp_path, "echo nope\n")
    result = CliRunner().invoke(inventory_main, ["-i", str(path), "--list"])
    assert result.exit_code == 0
    assert "[WARNING]: Failed to parse inventory with 'script' plugin" in result.stderr
    assert "its output is not JSON" in result.stderr
    result = CliRunner().invoke(inventory_main, ["-i", str(path), "--list"],
                                env={"ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED": "1"})
    assert result.exit_code == 4
    assert "its output is not JSON" in result.output and "Traceback" not in result.output
