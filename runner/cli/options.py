"""Options shared by ``provisioning`` and ``provisioning-playbook``, named and spelt as Ansible's."""

from __future__ import annotations

import getpass
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from runner.cli.verbosity import verbosity_option
from runner.errors import OptionError

if TYPE_CHECKING:
    from runner.connection import ConnectionSettings

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 110}

_SHARED_OPTIONS: list[Callable[[Any], Any]] = [
    click.option("-i", "--inventory", "--inventory-file", "inventory", multiple=True,
                 help="Inventory path or comma-separated host list (repeatable; --inventory-file is Ansible's "
                      "older name)."),
    click.option("-l", "--limit", help="Further limit selected hosts to a pattern (or @file)."),
    click.option("-e", "--extra-vars", "extra_vars", multiple=True,
                 help="Extra variables: key=value, YAML/JSON, or @file (repeatable)."),
    click.option("-f", "--forks", type=click.IntRange(min=1), help="Number of parallel worker processes."),
    click.option("--executor", metavar="local|ray|ray:auto|ray://HOST:PORT",
                 help="Where the workers run: forked here (local, the default) or as Ray actors on a cluster "
                      "(see docs/scale-out.md)."),
    click.option("-u", "--user", "remote_user", help="Connect as this user."),
    click.option("-c", "--connection", help="Connection type: ssh (default) or local."),
    click.option("-T", "--timeout", type=float, help="Connection timeout in seconds."),
    click.option("--persist", type=click.FloatRange(min=0), metavar="SECONDS",
                 help="Keep idle SSH connections and agents this long for the next run (0: off; default 60)."),
    click.option("--private-key", "--key-file", "private_key_file", help="Private key file for SSH."),
    click.option("-k", "--ask-pass", is_flag=True, help="Ask for the SSH password."),
    click.option("--connection-password-file", "--conn-pass-file", "connection_password_file",
                 metavar="FILE", help="A file holding the SSH password, or an executable printing it ('-': "
                                      "standard input)."),
    click.option("--ssh-common-args", help="OpenSSH arguments for every host (-o Option=value, -J, -F, -p ...)."),
    click.option("--ssh-extra-args", help="OpenSSH arguments for every host, after --ssh-common-args."),
    click.option("--scp-extra-args", help="Accepted for Ansible's command lines: files travel over the agent's "
                                          "SSH connection, never by scp, so it is not used (a warning says so)."),
    click.option("--sftp-extra-args", help="Accepted for Ansible's command lines: files travel over the agent's "
                                           "SSH connection, never by sftp, so it is not used (a warning says so)."),
    click.option("-b", "--become", is_flag=True, default=None, help="Run operations with become."),
    click.option("--become-user", help="Become this user (default root)."),
    click.option("--become-method", help="Privilege escalation method: sudo or su."),
    click.option("-K", "--ask-become-pass", is_flag=True, help="Ask for the privilege escalation password."),
    click.option("--become-password-file", "--become-pass-file", "become_password_file",
                 metavar="FILE", help="A file holding the privilege escalation password, or an executable "
                                      "printing it ('-': standard input)."),
    click.option("-C", "--check", is_flag=True, help="Predict changes without making them."),
    click.option("-D", "--diff", is_flag=True, help="Show the differences in changed files and templates."),
    click.option("--diff-secrets", is_flag=True, default=None,
                 help="With --diff, show the content of files copied or templated from an encrypted source "
                      "(diff_secret_sources)."),
    click.option("--list-hosts", is_flag=True, help="List the matching hosts and exit."),
    click.option("--playbook-dir", type=click.Path(file_okay=False, path_type=Path),
                 help="Directory used as playbook_dir (for group_vars/host_vars and relative paths)."),
    click.option("-M", "--module-path", "module_path", multiple=True,
                 help="Module directories searched before the configured library (colon-separated, repeatable)."),
    click.option("--flush-cache", is_flag=True,
                 help="Clear the fact cache of the inventory's hosts before the run (fact_caching = jsonfile)."),
    verbosity_option,
]


def shared_options(function: Callable[..., Any]) -> Callable[..., Any]:
    from runner.cli.vault_options import VAULT_OPTIONS
    from runner.cli.version import version_option

    for option in reversed([*_SHARED_OPTIONS, *VAULT_OPTIONS, version_option]):
        function = option(function)
    return function


def config_overrides(options: dict[str, Any]) -> dict[str, Any]:
    """The command-line values that override configuration settings (None means not given)."""
    return {
        "inventory": list(options["inventory"]) or None,
        "forks": options.get("forks"),
        "executor": options.get("executor"),
        "remote_user": options.get("remote_user"),
        "timeout": options.get("timeout"),
        "persist": options.get("persist"),
        "private_key_file": options.get("private_key_file"),
        "ssh_common_args": options.get("ssh_common_args"),
        "ssh_extra_args": options.get("ssh_extra_args"),
        "become": options.get("become") or None,
        "become_user": options.get("become_user"),
        "become_method": options.get("become_method"),
        "library": module_path_override(options),
        "diff_secret_sources": options.get("diff_secrets") or None,
    }


def module_path_override(options: dict[str, Any]) -> list[str] | None:
    """``-M A:B -M C`` puts A, B and C before the configured library, as Ansible's --module-path does."""
    given = [part for value in options.get("module_path") or () for part in value.split(os.pathsep) if part]
    if not given:
        return None
    from runner.config import load_config  # the configured library, read as every command reads it

    return [*given, *(str(path) for path in load_config().library)]


def unused_option_warnings(options: dict[str, Any]) -> list[str]:
    """Ansible options that are accepted but mean nothing here, each said once when given."""
    return [f"--{name.replace('_', '-')} is not used: files travel over the agent's SSH connection, never by "
            f"{name.split('_')[0]}" for name in ("scp_extra_args", "sftp_extra_args") if options.get(name)]


def connection_defaults(config: Any, options: dict[str, Any]) -> ConnectionSettings:
    """Connection settings every host starts from, before its own variables apply."""
    from runner.config.values import DISCOVER_INTERPRETER
    from runner.connection import ConnectionSettings  # not needed for --help or an option error
    from runner.connection.settings import REMOTE_TMP

    password = _password(options.get("connection_password_file"), "SSH password",
                         options.get("ask_pass") or config.ask_pass)
    become_password = _password(options.get("become_password_file"), "BECOME password",
                                options.get("ask_become_pass") or config.become_ask_pass)
    return ConnectionSettings(
        name="", address="",
        connection=options.get("connection") or "ssh",
        port=config.remote_port,  # None: the OpenSSH configuration says, else 22
        user=config.remote_user or None,
        password=password,
        private_key_file=config.private_key_file or None,
        host_key_checking=config.host_key_checking,
        known_hosts_file=config.known_hosts_file or None,
        ssh_args=config.ssh_args,
        ssh_common_args=config.ssh_common_args,
        ssh_extra_args=config.ssh_extra_args,
        keepalive_interval=config.ssh_keepalive_interval,
        keepalive_count_max=config.ssh_keepalive_count_max,
        timeout=float(config.timeout),
        interpreter=None if config.interpreter in DISCOVER_INTERPRETER else config.interpreter,
        interpreter_mode=config.interpreter if config.interpreter in DISCOVER_INTERPRETER else "auto",
        connect_retries=int(config.connect_retries),
        become=bool(config.become),
        become_user=config.become_user or "root",
        become_method=config.become_method or "sudo",
        become_password=become_password,
        become_flags=config.become_flags or "",
        remote_tmp=config.remote_tmp or REMOTE_TMP,
    )


def _password(file: str | None, prompt: str, ask: bool) -> str | None:
    """Asked for, else read from the password file (``-``: standard input), in Ansible's order."""
    if ask:
        return getpass.getpass(f"{prompt}: ")
    if file:
        from runner.secrets.passwords import read_password_file

        return read_password_file(file, prompt.replace("password", "password file"))
    return None


def parse_extra_vars(values: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """``-e`` values, merged left to right: ``@file`` (YAML/JSON), inline YAML/JSON mappings, or ``k=v`` pairs."""
    from runner.loader.yaml import load_yaml_file, load_yaml_text
    from runner.parsing.kv import parse_kv
    from runner.templating.filters.data import legacy_markers

    merged: dict[str, Any] = {}
    for value in values:
        text = value.strip()
        if text.startswith("@"):
            data = load_yaml_file(text[1:])
        elif text.startswith(("{", "[")):
            try:
                # As Ansible's legacy JSON: {"__ansible_unsafe": ...} is text never templated
                data = json.loads(text, object_hook=legacy_markers)
            except ValueError:
                data = load_yaml_text(text, "<extra vars>")
        elif "=" in text:
            data = parse_kv(text, check_raw=False)
        elif text:
            data = load_yaml_text(text, "<extra vars>")
        else:
            data = {}
        if not isinstance(data, dict):
            raise OptionError(f"extra vars must be key=value pairs or a mapping, got: {value!r}")
        merged.update(data)
    return merged
