"""The vault options every command shares (``--vault-id``, ``--vault-password-file``, ``--ask-vault-pass``), and
reading the passwords they name once, before anything is loaded.

The order is Ansible's: ``--vault-id`` values, then ``vault_identity_list`` from the configuration, then password
files (command line, then ``vault_password_file``), then the prompt. A password without a label gets
``vault_identity`` (``default``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from runner.config import Config

VAULT_OPTIONS: list[Callable[[Any], Any]] = [
    click.option("--vault-id", "vault_ids", multiple=True, metavar="[LABEL@]SOURCE",
                 help="A vault password: LABEL@FILE, LABEL@SCRIPT or LABEL@prompt (repeatable)."),
    click.option("--vault-password-file", "--vault-pass-file", "vault_password_files", multiple=True,
                 metavar="FILE", help="A file holding the vault password, or a script printing it (repeatable)."),
    click.option("-J", "--ask-vault-password", "--ask-vault-pass", "ask_vault_pass", is_flag=True,
                 help="Ask for the vault password."),
]


def vault_options(function: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed(VAULT_OPTIONS):
        function = option(function)
    return function


def vault_id_specs(config: Config, options: dict[str, Any]) -> list[str]:
    """Every ``LABEL@SOURCE`` the command line and the configuration give, in the order they are tried."""
    label = config.vault_identity or "default"
    specs = [*options.get("vault_ids", ()), *(config.vault_identity_list or [])]
    files = [*options.get("vault_password_files", ())]
    if config.vault_password_file:
        files.append(str(config.vault_password_file))
    specs += [f"{label}@{path}" for path in files]
    if options.get("ask_vault_pass") or (config.ask_vault_pass and not specs):
        specs.append(f"{label}@prompt")
    return list(dict.fromkeys(specs))


def install_vault_secrets(config: Config, options: dict[str, Any], *, confirm: bool = False,
                          auto_prompt: bool = False) -> None:
    """Read the passwords the options and configuration name and make them the process's keyring.

    Without any, nothing is read and nothing is imported: an encrypted value met later says which options give
    a password. A source that fails (no such file, a script exiting non-zero) is an error now, as in Ansible."""
    specs = vault_id_specs(config, options)
    if not specs and auto_prompt and sys.stdin.isatty():  # provisioning-vault asks, as ansible-vault does
        specs = [f"{config.vault_identity or 'default'}@prompt"]
    if not specs:
        return
    from runner.secrets.keyring import Keyring, VaultPassword, install_keyring
    from runner.secrets.passwords import VaultIdSpec, read_password

    passwords = []
    for text in specs:
        spec = VaultIdSpec.parse(text)
        passwords.append(VaultPassword(spec.label, read_password(spec, confirm=confirm), spec.source))
    install_keyring(Keyring(passwords, id_match=config.vault_id_match, default_id=config.vault_identity or "default"))
