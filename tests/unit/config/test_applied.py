"""Settings that were accepted and ignored now reach what they set: play defaults in the compiled plan, the
connection every host starts from, and the become command."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli.options import connection_defaults
from runner.cli.playbook import main
from runner.config import load_config
from runner.connection.become import wrap
from runner.connection.settings import BecomeSettings, ConnectionSettings, resolved_connection_name

PLAYS = """\
- hosts: localhost
  tasks: [{debug: {msg: hi}}]
- hosts: localhost
  strategy: linear
  any_errors_fatal: false
  gather_facts: true
  tasks: [{debug: {msg: hi}}]
"""


def compiled_plays(tmp_path: Path, config: str) -> list[dict]:
    (tmp_path / "provisioning.cfg").write_text(config)
    (tmp_path / "site.yml").write_text(PLAYS)
    result = CliRunner().invoke(main, [str(tmp_path / "site.yml"), "--plan", str(tmp_path / "plan.json")],
                                env={"PROVISIONING_CONFIG": str(tmp_path / "provisioning.cfg")})
    assert result.exit_code == 0, result.output
    return json.loads((tmp_path / "plan.json").read_text())["plays"]


def test_strategy_any_errors_fatal_and_gathering_are_the_defaults_of_plays(tmp_path: Path) -> None:
    first, second = compiled_plays(tmp_path, "[defaults]\nstrategy = free\nany_errors_fatal = true\n"
                                             "gathering = explicit\n")
    assert (first["strategy"], first["any_errors_fatal"], first["gather_facts"]) == ("free", True, False)
    assert (second["strategy"], second["any_errors_fatal"], second["gather_facts"]) == ("linear", False, True)


def test_without_settings_plays_keep_ansibles_defaults(tmp_path: Path) -> None:
    first, _ = compiled_plays(tmp_path, "[defaults]\n")
    assert (first["strategy"], first["any_errors_fatal"], first["gather_facts"]) == ("linear", False, True)


def test_remote_port_and_become_flags_reach_the_connection_defaults(tmp_path: Path) -> None:
    (tmp_path / "provisioning.cfg").write_text("[defaults]\nremote_port = 2222\n\n"
                                               "[privilege_escalation]\nbecome = true\nbecome_flags = -H -S -n\n")
    config = load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    defaults = connection_defaults(config, {})
    assert defaults.port == 2222
    assert defaults.become_settings() == BecomeSettings(user="root", method="sudo", flags="-H -S -n")
    host = ConnectionSettings.from_host_vars("web1", {"ansible_port": 22, "ansible_become_flags": "-i"}, defaults)
    assert (host.port, host.become_flags) == (22, "-i")  # a host's own variables still win


def test_without_remote_port_the_port_is_sshs_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from runner.connection.ssh_options import ssh_target

    monkeypatch.setenv("HOME", str(tmp_path))
    defaults = connection_defaults(load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path), {})
    assert defaults.port is None  # left to the OpenSSH configuration (a Host block's Port), else 22
    assert ssh_target(replace(defaults, name="web1", address="web1"), str).port == 22


def test_sudo_takes_the_flags_but_decides_on_password_reading_itself() -> None:
    with_password, _, _ = wrap("true", BecomeSettings(flags="-H -S -n", password="secret"))
    without, _, _ = wrap("true", BecomeSettings(flags="-E"))
    assert with_password.startswith("sudo -H -S -p ")  # -n would make sudo refuse to read the password
    assert " -n " not in with_password
    assert without.startswith("sudo -E -S -n -u root ")
    assert wrap("true", BecomeSettings())[0].startswith("sudo -H -S -n -u root ")  # Ansible's default flags


def test_su_takes_the_flags() -> None:
    command, _, _ = wrap("true", BecomeSettings(method="su", user="app", flags="-l"))
    assert command.startswith("su -l -s /bin/sh app -c ")


def test_a_connections_resolved_name_is_its_full_name() -> None:
    assert resolved_connection_name("local") == "ansible.builtin.local"
    assert resolved_connection_name("ansible.legacy.local") == "ansible.builtin.local"
    assert resolved_connection_name("community.docker.docker") == "community.docker.docker"
