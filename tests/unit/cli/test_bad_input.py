"""User mistakes given to `provisioning`: one clear message with file:line, a non-zero exit, no traceback, and no
host touched (the inventory's only host does not exist: touching it would print UNREACHABLE)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.support.scripts import script

HOST_LINE = "web1 ansible_host=127.0.0.99 ansible_ssh_timeout=1\n"


# an inventory source that cannot be read is an error only with this (a warning by default, as in Ansible)
STRICT_INVENTORY = {"ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED": "true"}


def run(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("PROVISIONING_", "ANSIBLE_"))}
    environment["PROVISIONING_CONFIG"] = str(tmp_path / "provisioning.cfg")
    environment["PROVISIONING_PERSIST"] = "0"  # nothing kept: no keeper or warm controller outlives the test
    environment.update(env or {})
    return subprocess.run([script("provisioning"), *args], capture_output=True, text=True, cwd=tmp_path,
                          env=environment, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "provisioning.cfg").write_text("[defaults]\nforks = 2\n")
    (tmp_path / "hosts.ini").write_text(f"[web]\n{HOST_LINE}")
    return tmp_path


def assert_clean_error(result: subprocess.CompletedProcess[str], code: int, *fragments: str) -> None:
    assert result.returncode == code, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert "UNREACHABLE" not in result.stdout and "SUCCESS" not in result.stdout
    for fragment in fragments:
        assert fragment in result.stderr


def test_malformed_ini_inventory(project: Path) -> None:
    (project / "hosts.ini").write_text("[web\nweb1\n")
    result = run(project, "all", "-i", "hosts.ini", "-m", "ping", env=STRICT_INVENTORY)
    assert_clean_error(result, 4, "hosts.ini:1")


def test_malformed_yaml_inventory(project: Path) -> None:
    (project / "hosts.yml").write_text("all:\n  hosts:\n    web1: {ansible_host: [1\n")
    result = run(project, "all", "-i", "hosts.yml", "-m", "ping", env=STRICT_INVENTORY)
    assert_clean_error(result, 4, "hosts.yml:")


def test_unknown_module(project: Path) -> None:
    result = run(project, "all", "-i", "hosts.ini", "-m", "pnig")
    assert_clean_error(result, 1, "couldn't resolve module/action 'pnig'", "did you mean 'ping'?")


def test_bad_module_argument(project: Path) -> None:
    result = run(project, "all", "-i", "hosts.ini", "-m", "copy", "-a", "dest=/tmp/x contnet=hi")
    assert_clean_error(result, 5, "unsupported parameter", "contnet")


def test_bad_config_value_names_file_and_line(project: Path) -> None:
    (project / "provisioning.cfg").write_text("[defaults]\n\nforks = many\n")
    result = run(project, "all", "-i", "hosts.ini", "-m", "ping")
    assert_clean_error(result, 5, "provisioning.cfg:3")


def test_unknown_config_key_suggests_the_right_one(project: Path) -> None:
    (project / "provisioning.cfg").write_text("[defaults]\nfroks = 3\n")
    result = run(project, "all", "-i", "hosts.ini", "-m", "ping")
    assert_clean_error(result, 5, "provisioning.cfg:2", "forks")


def test_bad_option_value(project: Path) -> None:
    result = run(project, "all", "-i", "hosts.ini", "-m", "ping", "-f", "0")
    assert_clean_error(result, 5, "Invalid value for '-f' / '--forks'")


def test_missing_inventory_file(project: Path) -> None:
    result = run(project, "all", "-i", "nope.ini", "-m", "ping", env=STRICT_INVENTORY)
    assert_clean_error(result, 4, "nope.ini")


def test_an_unreadable_inventory_is_a_warning_by_default_as_in_ansible(project: Path) -> None:
    (project / "hosts.yml").write_text("all:\n  hosts:\n    web1: {ansible_host: [1\n")
    result = run(project, "all", "-i", "hosts.yml", "-i", "nope.ini", "-m", "ping")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert "[WARNING]: Failed to parse inventory with 'yaml' plugin: " in result.stderr
    assert f"[WARNING]: Unable to parse {project / 'nope.ini'} as an inventory source" in result.stderr
    assert "[WARNING]: No inventory was parsed, only implicit localhost is available" in result.stderr
    assert "Traceback" not in result.stderr
