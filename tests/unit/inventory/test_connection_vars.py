"""Typed connection variables (port, timeout): a written value that cannot be one is refused when the inventory
loads, at its file:line:col; a templated one is checked once a task renders it, and fails that task clearly."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runner.connection import ConnectionSettings, ConnectionVariableError
from runner.errors import ParseError
from runner.inventory import load_inventory
from tests.support.scripts import script


@pytest.mark.parametrize(("name", "text", "where", "message"), [
    ("hosts.ini", "[web]\nweb1 ansible_host=10.0.0.1 ansible_port=notaport\n", "hosts.ini:2:28",
     "ansible_port must be a port number from 1 to 65535, got 'notaport'"),
    ("hosts.ini", "[web]\nweb1:99999\n", "hosts.ini:2:1",
     "ansible_port must be a port number from 1 to 65535, got 99999"),
    ("hosts.ini", "[web]\nweb1\n[web:vars]\nansible_timeout=soon\n", "hosts.ini:4:1",
     "ansible_timeout must be a number of seconds greater than 0, got 'soon'"),
    ("hosts.ini", "[web]\nweb1 provisioning_ssh_port=0\n", "hosts.ini:2:6",
     "provisioning_ssh_port must be a port number from 1 to 65535, got 0"),
    ("hosts.yml", "all:\n  hosts:\n    web1:\n      ansible_host: 10.0.0.1\n      ansible_port: 70000\n",
     "hosts.yml:5:7",
     "ansible_port must be a port number from 1 to 65535, got 70000"),
    ("hosts.yml", "all:\n  vars:\n    ansible_ssh_timeout: -1\n  hosts:\n    web1:\n", "hosts.yml:3:5",
     "ansible_ssh_timeout must be a number of seconds greater than 0, got -1"),
])
def test_a_bad_connection_variable_is_refused_where_it_is_written(tmp_path: Path, name: str, text: str, where: str,
                                                                   message: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(ParseError) as raised:
        load_inventory([tmp_path / name])
    assert (str(raised.value.position), raised.value.message) == (f"{tmp_path}/{where}", message)


@pytest.mark.parametrize("directory", ["group_vars", "host_vars"])
def test_a_bad_port_in_group_or_host_vars_is_refused(tmp_path: Path, directory: str) -> None:
    (tmp_path / "hosts.ini").write_text("[web]\nweb1\n")
    (tmp_path / directory).mkdir()
    (tmp_path / directory / ("web.yml" if directory == "group_vars" else "web1.yml")).write_text(
        "other: 1\nansible_port: '22x'\n")
    with pytest.raises(ParseError, match="ansible_port must be a port number from 1 to 65535, got '22x'") as raised:
        load_inventory([tmp_path / "hosts.ini"]).host_vars("web1")
    assert raised.value.position.line == 2


def test_good_and_templated_values_load(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[web]\nweb1 ansible_port=2222 ansible_timeout=2.5\n"
                                        "web2 ansible_port='{{ base_port + 1 }}'\n")
    inventory = load_inventory([tmp_path / "hosts.ini"])
    settings = ConnectionSettings.from_host_vars("web1", inventory.host_vars("web1"))
    assert (settings.port, settings.timeout) == (2222, 2.5)
    assert ConnectionSettings.from_host_vars("web2", {"ansible_port": "8081"}).port == 8081  # once rendered
    with pytest.raises(ConnectionVariableError, match="ansible_port must be a port number"):
        ConnectionSettings.from_host_vars("web2", inventory.host_vars("web2"))


@pytest.mark.parametrize(("written", "used"), [("ansible.builtin.ssh", "ssh"), ("ansible.legacy.local", "local"),
                                                ("local", "local")])
def test_a_builtin_connection_may_be_named_in_full(written: str, used: str) -> None:
    assert ConnectionSettings.from_host_vars("web1", {"ansible_connection": written}).connection == used


def command(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    environment["PROVISIONING_PERSIST"] = "0"  # nothing kept: no keeper or warm controller outlives the test
    return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=tmp_path,
                          env={**environment, **(env or {})}, timeout=120)


def test_the_cli_refuses_a_bad_port_before_touching_any_host(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[web]\nweb1 ansible_host=127.0.0.99 ansible_port=notaport\n")
    result = command(tmp_path, "provisioning", "all", "-i", "hosts.ini", "-m", "ping",
                     env={"ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED": "true"})
    assert result.returncode == 4, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"ERROR: {tmp_path / 'hosts.ini'}:2:30: ansible_port must be a port number")
    assert "internal error" not in result.stdout + result.stderr and "UNREACHABLE" not in result.stdout
    # by default, as Ansible's, the unreadable source is a warning saying why, and no host is touched
    result = command(tmp_path, "provisioning", "all", "-i", "hosts.ini", "-m", "ping")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert f"{tmp_path / 'hosts.ini'}:2:30: ansible_port must be a port number" in result.stderr
    assert "No hosts matched 'all'" in result.stderr and "UNREACHABLE" not in result.stdout


# A templated port out of range: only known once rendered, so the task fails, saying which variable and value.
RENDERED_WRONG = ("the connection variables of web1 cannot be used: ansible_port must be a port number from 1 to "
                  "65535, got 70001")
TEMPLATED = "[web]\nweb1 ansible_host=127.0.0.99 ansible_connection=ssh ansible_port='{{ 1 + 70000 }}'\n"


def test_a_templated_bad_port_fails_the_ad_hoc_command_for_that_host(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text(TEMPLATED)
    result = command(tmp_path, "provisioning", "all", "-i", "hosts.ini", "-m", "ping")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert RENDERED_WRONG in result.stdout
    assert "internal error" not in result.stdout + result.stderr


def test_a_templated_bad_port_fails_the_task(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text(TEMPLATED)
    (tmp_path / "play.yml").write_text("- hosts: web\n  gather_facts: false\n  tasks:\n    - ping:\n")
    result = command(tmp_path, "provisioning-playbook", "-i", "hosts.ini", "play.yml")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert f"{RENDERED_WRONG} (task 'ping' at " in result.stdout
    assert "internal error" not in result.stdout + result.stderr


def test_the_discovery_names_are_a_list_and_count_only_while_discovering() -> None:
    """ansible_interpreter_python_fallback, a list (or names separated by commas, as Ansible reads a list);
    a configured interpreter needs none, so it does not split the agents."""
    names = {"ansible_interpreter_python_fallback": ["python3.12", "/usr/bin/python3"]}
    assert ConnectionSettings.from_host_vars("h", names).interpreter_fallback == ("python3.12", "/usr/bin/python3")
    assert ConnectionSettings.from_host_vars(
        "h", {"ansible_interpreter_python_fallback": "python3.12, python3"}).interpreter_fallback == (
        "python3.12", "python3")
    assert ConnectionSettings.from_host_vars(
        "h", {**names, "ansible_python_interpreter": "auto_silent"}).interpreter_fallback is not None
    assert ConnectionSettings.from_host_vars(
        "h", {**names, "ansible_python_interpreter": "/usr/bin/python3"}).interpreter_fallback is None
    with pytest.raises(ConnectionVariableError, match="a list of interpreter names"):
        ConnectionSettings.from_host_vars("h", {"ansible_interpreter_python_fallback": 3})
