"""OpenSSH arguments and configuration turned into asyncssh's connect options: flags, -o options, precedence
(OpenSSH's first value wins, in Ansible's order), the configuration files, the keepalive, and refusals that name
what cannot be honoured."""

from __future__ import annotations

import re
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from runner.connection import ConnectionSettings
from runner.connection.ssh_args import SSHArgumentError, parse_ssh_args
from runner.connection.ssh_options import (
    DEFAULT_KEEPALIVE_COUNT_MAX,
    DEFAULT_KEEPALIVE_INTERVAL,
    PREFERRED_CIPHERS,
    ssh_target,
)

BASE = ConnectionSettings(name="web1", address="web1")


@pytest.fixture(autouse=True)
def empty_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A HOME without ~/.ssh/config, unless a test writes one."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    return home


def target(**changes: Any) -> tuple[str, int, dict[str, Any]]:
    resolved = ssh_target(replace(BASE, **changes), lambda path: f"known:{path}")
    return resolved.host, resolved.port, resolved.options


def test_flags_become_the_options_they_stand_for() -> None:
    parsed = parse_ssh_args("-C -q -vvv -4 -p2222 -l bob -i ~/k -J a@b:2 -o ControlMaster=auto -oPort=1 -F cfg",
                            "ssh_args")
    assert parsed.options == (("Compression", "yes"), ("LogLevel", "QUIET"), ("LogLevel", "VERBOSE"),
                              ("LogLevel", "VERBOSE"), ("LogLevel", "VERBOSE"), ("AddressFamily", "inet"),
                              ("Port", "2222"), ("User", "bob"), ("IdentityFile", "~/k"), ("ProxyJump", "a@b:2"),
                              ("ControlMaster", "auto"), ("Port", "1"))
    assert parsed.config_files == ("cfg",)


def test_an_option_value_keeps_its_blanks_and_equals_signs() -> None:
    parsed = parse_ssh_args("-o 'ProxyCommand ssh -W %h:%p -o User=x bastion' -o \"Ciphers=aes128-ctr\"", "x")
    assert parsed.options == (("ProxyCommand", "ssh -W %h:%p -o User=x bastion"), ("Ciphers", "aes128-ctr"))


def test_each_string_is_parsed_once() -> None:
    text = "-o ServerAliveInterval=7 -p 2200"
    assert parse_ssh_args(text, "ssh_common_args") is parse_ssh_args(text, "ssh_common_args")


@pytest.mark.parametrize("text, message", [
    ("-L 80:x:80", "ssh_extra_args: ssh option -L (port forwarding) is not supported"),
    ("-t", "ssh option -t (a terminal"),
    ("-p", "ssh option -p needs a value"),
    ("web1", "'web1' is not an ssh option"),
    ("-o 'unbalanced", "cannot split"),
    ("-o Port", "needs the form Keyword=value"),
])
def test_arguments_that_cannot_be_honoured_are_refused(text: str, message: str) -> None:
    with pytest.raises(SSHArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_ssh_args(text, "ssh_extra_args")


def test_defaults_connect_timeout_keepalive_and_ciphers() -> None:
    host, port, options = target()
    assert (host, port) == ("web1", 22)
    assert options["connect_timeout"] == options["login_timeout"] == 10.0
    assert options["keepalive_interval"] == DEFAULT_KEEPALIVE_INTERVAL
    assert options["keepalive_count_max"] == DEFAULT_KEEPALIVE_COUNT_MAX
    assert options["encryption_algs"] == PREFERRED_CIPHERS
    assert options["config"] == []
    assert "port" not in options and "username" not in options  # left to ~/.ssh/config, else asyncssh's defaults
    assert "password" not in options
    assert target(password="secret")[2]["password"] == "secret"


def test_first_value_wins_in_ansibles_order() -> None:
    # ssh_args come before the connection settings, which come before ssh_common_args, then ssh_extra_args.
    _, port, options = target(port=2200, user="ann", ssh_args="-o User=root", ssh_common_args="-p 2300 -l bob",
                              ssh_extra_args="-o Port=2400 -o HostKeyAlias=web")
    assert port == options["port"] == 2200
    assert options["username"] == "root"
    assert options["host_key_alias"] == "web"


def test_identity_files_add_up_and_identities_only_restricts_the_agent() -> None:
    _, _, options = target(private_key_file="/keys/a", ssh_common_args="-i /keys/b -o IdentitiesOnly=yes")
    assert options["client_keys"] == ["/keys/a", "/keys/b"]
    assert options["agent_identities"] == ["/keys/a", "/keys/b"]


def test_host_key_checking_and_known_hosts() -> None:
    assert target(ssh_common_args="-o StrictHostKeyChecking=no -o UserKnownHostsFile=/k")[2]["known_hosts"] is None
    assert target(host_key_checking=False)[2]["known_hosts"] is None
    assert target(ssh_common_args="-o UserKnownHostsFile=/k")[2]["known_hosts"] == "known:/k"
    assert target(ssh_common_args="-o 'UserKnownHostsFile /a /b'")[2]["known_hosts"] == ["/a", "/b"]


def test_keepalive_from_settings_arguments_and_config(empty_home: Path) -> None:
    assert target(keepalive_interval=4.0, keepalive_count_max=5)[2]["keepalive_interval"] == 4.0
    _, _, options = target(ssh_common_args="-o ServerAliveInterval=2 -o ServerAliveCountMax=6")
    assert (options["keepalive_interval"], options["keepalive_count_max"]) == (2.0, 6)
    (empty_home / ".ssh" / "config").write_text("Host web*\n  ServerAliveInterval 30\n  Ciphers aes256-ctr\n")
    _, _, options = target()
    # asyncssh takes them from the configuration: provisioning's defaults step aside
    assert "keepalive_interval" not in options and "encryption_algs" not in options
    assert options["keepalive_count_max"] == DEFAULT_KEEPALIVE_COUNT_MAX
    assert options["config"] == [str(empty_home / ".ssh" / "config")]


def test_a_config_file_given_with_dash_f(tmp_path: Path) -> None:
    config = tmp_path / "cfg"
    config.write_text("Host web1\n  HostName 10.0.0.5\n  Port 2222\n  User deploy\n")
    host, port, options = target(ssh_common_args=f"-F {config}")
    assert options["config"] == [str(config)]
    assert host == "web1"  # asyncssh matches Host blocks against the name given, and connects to the HostName
    assert port == 2222  # as the configuration says (for messages)
    with pytest.raises(SSHArgumentError, match="cannot read the configuration file /no/such"):
        target(ssh_common_args="-F /no/such")


def test_jumps_proxy_commands_and_the_rest() -> None:
    _, _, options = target(ssh_common_args="-J ssh://root@bastion:2222,jump2 -C -6 -o TCPKeepAlive=no "
                                           "-o PasswordAuthentication=no -o KexAlgorithms=+diffie-hellman-group14-sha1")
    assert options["tunnel"] == "root@bastion:2222,jump2"
    assert options["compression_algs"] == "zlib@openssh.com,zlib,none"
    assert options["family"] == socket.AF_INET6
    assert options["tcp_keepalive"] is False and options["password_auth"] is False
    assert options["kex_algs"] == "+diffie-hellman-group14-sha1"
    _, _, options = target(user="ann", port=2200, ssh_common_args="-o 'ProxyCommand nc -X connect %r@%h:%p %%'")
    assert options["proxy_command"] == "nc -X connect ann@web1:2200 %"
    assert target(ssh_common_args="-o ProxyJump=none")[2]["tunnel"] is None


def test_connection_sharing_and_logging_are_accepted_with_no_effect() -> None:
    _, _, options = target(ssh_args="-C -o ControlMaster=auto -o ControlPersist=60s -o ControlPath=/tmp/%C -q",
                           ssh_common_args="-o BatchMode=yes -o RequestTTY=no")
    assert not {"ControlMaster", "control_master"} & set(options)


@pytest.mark.parametrize("args, message", [
    ("-o ForwardX11=yes", "ssh_common_args: ssh option ForwardX11=yes is not supported"),
    ("-o StrictHostKeyChecking=accept-new", "ssh option StrictHostKeyChecking=accept-new: accepting"),
    ("-o LocalForward=80", "ssh_common_args: ssh option LocalForward is not supported (supported: Hostname"),
    ("-p 99999", "ssh option Port=99999: expected a port number"),
    ("-o ProxyCommand='nc %x'", "unknown token %x"),
    ("-o Compression=maybe", "expected yes or no"),
])
def test_options_that_cannot_be_honoured_are_refused_by_name(args: str, message: str) -> None:
    with pytest.raises(SSHArgumentError) as caught:
        target(ssh_common_args=args)
    assert message in str(caught.value)


def test_variables_reach_the_settings() -> None:
    settings = ConnectionSettings.from_host_vars("web1", {
        "ansible_ssh_common_args": "-J bastion", "ansible_ssh_extra_args": "-p 2200", "ansible_ssh_args": "-C",
        "provisioning_ssh_keepalive_interval": "5", "provisioning_ssh_keepalive_count_max": 2}, BASE)
    assert (settings.ssh_common_args, settings.ssh_extra_args, settings.ssh_args) == ("-J bastion", "-p 2200", "-C")
    assert (settings.keepalive_interval, settings.keepalive_count_max) == (5.0, 2)
    assert settings.port is None


@pytest.mark.parametrize("value", ["auto", "auto_silent", "auto_legacy", " auto_legacy_silent"])
def test_an_interpreter_to_discover_is_no_interpreter_as_in_the_configuration(value: str) -> None:
    # ansible_python_interpreter: auto is common in inventories: the agent starts with the first python3 found
    configured = replace(BASE, interpreter="/opt/py/bin/python3")
    assert ConnectionSettings.from_host_vars("web1", {"ansible_python_interpreter": value}, configured).interpreter \
        is None
    assert ConnectionSettings.from_host_vars("web1", {"ansible_python_interpreter": "/usr/bin/python3"},
                                             BASE).interpreter == "/usr/bin/python3"


def test_configuration_keys_and_environment_reach_the_defaults(tmp_path: Path) -> None:
    from runner.cli.options import connection_defaults
    from runner.config import load_config

    (tmp_path / "provisioning.cfg").write_text(
        "[defaults]\nremote_port = 2201\n[ssh_connection]\nssh_args = -C -o ControlMaster=auto\n"
        "ssh_extra_args = -o HostKeyAlias=x\nssh_keepalive_count_max = 4\n")
    config = load_config(env={"HOME": str(tmp_path), "ANSIBLE_SSH_COMMON_ARGS": "-J bastion",
                              "PROVISIONING_SSH_KEEPALIVE_INTERVAL": "3"}, cwd=tmp_path)
    defaults = connection_defaults(config, {})
    assert (defaults.ssh_args, defaults.ssh_common_args, defaults.ssh_extra_args) == (
        "-C -o ControlMaster=auto", "-J bastion", "-o HostKeyAlias=x")
    assert (defaults.keepalive_interval, defaults.keepalive_count_max, defaults.port) == (3.0, 4, 2201)


@pytest.mark.parametrize("name, value, expected", [
    ("provisioning_ssh_keepalive_interval", "soon", "a number of seconds (0: no keepalive)"),
    ("provisioning_ssh_keepalive_interval", -1, "a number of seconds (0: no keepalive)"),
    ("ansible_ssh_keepalive_count_max", 0, "a whole number of at least 1"),
])
def test_a_bad_keepalive_variable_names_itself(name: str, value: Any, expected: str) -> None:
    with pytest.raises(ValueError, match=rf"{name} must be {re.escape(expected)}"):
        ConnectionSettings.from_host_vars("web1", {name: value}, BASE)
    assert ConnectionSettings.from_host_vars("web1", {name.replace("count_max", "interval"): 0}, BASE
                                             ).keepalive_interval == 0.0
