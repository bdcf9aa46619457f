"""``provisioning-vault``: ansible-vault's verbs (create, encrypt, decrypt, view, edit, rekey, encrypt_string), and
age encryption with ``encrypt --age RECIPIENT``.

Files it writes are replaced in one step (a temporary file beside them, then a rename): an interrupted command
leaves the old file or the new one, never half of either. A file that existed keeps its mode; a new one is 0600.
``edit`` and ``create`` hand the plaintext to ``$EDITOR`` in a private temporary directory that is removed
afterwards, whatever happens.
"""

from __future__ import annotations

import os
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import click

from runner.cli.common import Group, report_errors
from runner.cli.options import CONTEXT_SETTINGS
from runner.cli.vault_options import VAULT_OPTIONS, install_vault_secrets
from runner.errors import ExitCode, OptionError, UserError
from runner.secrets.detect import is_age, is_vault
from runner.util.files import atomic_write_bytes

STDIO = "-"
_INDENT = " " * 10  # how ansible-vault indents an encrypt_string block


def _vault_options(function: Any) -> Any:
    for option in reversed(VAULT_OPTIONS):
        function = option(function)
    return function


encrypt_id_option = click.option("--encrypt-vault-id", metavar="LABEL",
                                 help="The vault id to encrypt with (default: vault_encrypt_identity, else the "
                                      "first password given).")
output_option = click.option("--output", "output", metavar="FILE", help="Write here instead ('-' for stdout).")


def _setup(options: dict[str, Any], *, confirm: bool = False) -> Any:
    """Configuration and passwords; returns the keyring."""
    from runner.config import load_config
    from runner.secrets.keyring import current_keyring

    config = load_config({})
    install_vault_secrets(config, options, confirm=confirm, auto_prompt=True)
    options.setdefault("encrypt_vault_id", None)
    if options["encrypt_vault_id"] is None:
        options["encrypt_vault_id"] = config.vault_encrypt_identity
    return current_keyring()


def _read(name: str) -> bytes:
    if name == STDIO:
        return sys.stdin.buffer.read()
    try:
        return Path(name).read_bytes()
    except OSError as exc:
        raise UserError(f"cannot read {name}: {exc.strerror}") from None


def _write(name: str, data: bytes, *, like: str | None = None) -> None:
    """``data`` to stdout, or atomically to ``name`` (keeping the mode of ``like`` when it exists, else 0600)."""
    if name == STDIO:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    mode = 0o600
    source = Path(like or name)
    if source.exists():
        mode = stat.S_IMODE(source.stat().st_mode)
    atomic_write_bytes(name, data, mode)


def _decrypt(data: bytes, origin: str, keyring: Any) -> bytes:
    from runner.secrets.files import decrypt_bytes

    if not (is_vault(data) or is_age(data)):
        raise UserError(f"{origin} is not encrypted (neither a vault nor an age file)")
    if is_vault(data):
        return keyring.decrypt(data, origin)
    return decrypt_bytes(data, origin)


def _encrypt(data: bytes, origin: str, keyring: Any, options: dict[str, Any]) -> bytes:
    if is_vault(data) or is_age(data):
        raise UserError(f"{origin} is already encrypted")
    recipients = list(options.get("age") or ())
    if recipients:
        from runner.secrets.age_files import encrypt_age

        if options.get("sops"):
            return _sops(data, origin, recipients)
        return encrypt_age(data, recipients)
    if options.get("sops"):
        raise OptionError("--sops needs --age RECIPIENT")
    return keyring.encrypt(data, options.get("encrypt_vault_id"))


def _sops(data: bytes, origin: str, recipients: list[str]) -> bytes:
    import yaml

    from runner.loader.yaml import load_yaml_text
    from runner.secrets.sops import encrypt_sops_document

    document = load_yaml_text(data.decode("utf-8"), origin)
    if not isinstance(document, dict):
        raise UserError(f"{origin}: --sops encrypts the values of a YAML mapping; this file is not one")
    return yaml.safe_dump(encrypt_sops_document(_plain(document), recipients), sort_keys=False).encode("utf-8")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_plain(item) for item in value]
    return value


def _edit_in_editor(initial: bytes, suffix: str) -> bytes:
    """Let the user edit ``initial`` in ``$EDITOR``; the plaintext lives in a 0700 directory removed afterwards."""
    editor = shlex.split(os.environ.get("EDITOR") or "vi")
    directory = tempfile.mkdtemp(prefix="provisioning-vault-")
    try:
        path = Path(directory) / f"edit{suffix}"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(initial)
        try:
            done = subprocess.run([*editor, str(path)], check=False)
        except OSError as exc:
            raise UserError(f"cannot run the editor {editor[0]!r}: {exc.strerror or exc} (set $EDITOR)") from None
        if done.returncode != 0:
            raise UserError(f"the editor {editor[0]!r} exited {done.returncode}: nothing was saved")
        return path.read_bytes()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


@click.group(cls=Group, context_settings=CONTEXT_SETTINGS)
def main() -> None:
    """Encrypt and decrypt files and values with Ansible Vault (byte-compatible with ansible-vault) or age."""


@main.command()
@click.argument("file")
@encrypt_id_option
@click.option("--age", multiple=True, metavar="RECIPIENT", help="Encrypt with age to this recipient (repeatable).")
@_vault_options
@report_errors
def create(file: str, **options: Any) -> int:
    """Create FILE encrypted, writing its content in $EDITOR."""
    if Path(file).exists():
        raise UserError(f"{file} exists, please use 'edit' instead")
    keyring = _setup(options, confirm=True)
    plaintext = _edit_in_editor(b"", Path(file).suffix)
    _write(file, _encrypt(plaintext, file, keyring, options))
    return ExitCode.OK


@main.command()
@click.argument("files", nargs=-1)
@encrypt_id_option
@output_option
@click.option("--age", multiple=True, metavar="RECIPIENT", help="Encrypt with age to this recipient (repeatable).")
@click.option("--sops", is_flag=True, help="With --age: encrypt each value of a YAML file, SOPS-style.")
@_vault_options
@report_errors
def encrypt(files: tuple[str, ...], output: str | None, **options: Any) -> int:
    """Encrypt FILES in place (or standard input, or to --output)."""
    names = list(files) or [STDIO]
    if output and len(names) > 1:
        raise OptionError("--output takes one input file")
    keyring = _setup(options, confirm=True) if not options.get("age") else None
    for name in names:
        _write(output or name, _encrypt(_read(name), name, keyring, options), like=name if output else None)
        if name != STDIO and output != STDIO:
            click.echo("Encryption successful", err=True)
    return ExitCode.OK


@main.command()
@click.argument("files", nargs=-1)
@output_option
@_vault_options
@report_errors
def decrypt(files: tuple[str, ...], output: str | None, **options: Any) -> int:
    """Decrypt FILES in place (or standard input, or to --output)."""
    names = list(files) or [STDIO]
    if output and len(names) > 1:
        raise OptionError("--output takes one input file")
    keyring = _setup(options)
    for name in names:
        _write(output or name, _decrypt(_read(name), name, keyring), like=name if output else None)
        if name != STDIO and output != STDIO:
            click.echo("Decryption successful", err=True)
    return ExitCode.OK


@main.command()
@click.argument("files", nargs=-1, required=True)
@_vault_options
@report_errors
def view(files: tuple[str, ...], **options: Any) -> int:
    """Show the plaintext of FILES."""
    keyring = _setup(options)
    for name in files:
        sys.stdout.buffer.write(_decrypt(_read(name), name, keyring))
    sys.stdout.flush()
    return ExitCode.OK


@main.command()
@click.argument("file")
@encrypt_id_option
@_vault_options
@report_errors
def edit(file: str, **options: Any) -> int:
    """Edit the encrypted FILE in $EDITOR; it is encrypted again as it was (same vault id, or same age keys)."""
    from runner.secrets.vault_format import parse_envelope

    keyring = _setup(options)
    data = _read(file)
    plaintext = _decrypt(data, file, keyring)
    edited = _edit_in_editor(plaintext, Path(file).suffix)
    if edited == plaintext:
        return ExitCode.OK
    if is_age(data):
        from runner.secrets.age_files import encrypt_age, public_keys

        _write(file, encrypt_age(edited, public_keys()))
    else:
        vault_id = options.get("encrypt_vault_id") or parse_envelope(data).vault_id
        known = vault_id if vault_id in keyring.vault_ids else None
        _write(file, keyring.encrypt(edited, known))
    return ExitCode.OK


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--new-vault-id", metavar="[LABEL@]SOURCE", help="The new password (and vault id).")
@click.option("--new-vault-password-file", metavar="FILE", help="A file (or script) with the new password.")
@encrypt_id_option
@_vault_options
@report_errors
def rekey(files: tuple[str, ...], new_vault_id: str | None, new_vault_password_file: str | None,
          **options: Any) -> int:
    """Encrypt vault FILES again with a new password (and vault id)."""
    from runner.secrets.keyring import Keyring, VaultPassword
    from runner.secrets.passwords import VaultIdSpec, read_password

    keyring = _setup(options)
    if new_vault_id and new_vault_password_file:
        raise OptionError("give --new-vault-id or --new-vault-password-file, not both")
    spec = VaultIdSpec.parse(new_vault_id or new_vault_password_file or "prompt")
    new = Keyring([VaultPassword(spec.label, read_password(spec, confirm=True, prompt_label="New Vault password"),
                                 spec.source)])
    for name in files:
        data = _read(name)
        if not is_vault(data):
            raise UserError(f"{name} is not vault-encrypted")
        _write(name, new.encrypt(keyring.decrypt(data, name)))
    click.echo("Rekey successful", err=True)
    return ExitCode.OK


@main.command(name="encrypt_string")
@click.argument("strings", nargs=-1)
@click.option("-n", "--name", "names", multiple=True, help="Variable name for each string, in order.")
@click.option("-p", "--prompt", "prompt", is_flag=True, help="Ask for the string to encrypt.")
@click.option("--stdin-name", help="Variable name for the string read from standard input.")
@encrypt_id_option
@output_option
@_vault_options
@report_errors
def encrypt_string(strings: tuple[str, ...], names: tuple[str, ...], prompt: bool, stdin_name: str | None,
                   output: str | None, **options: Any) -> int:
    """Encrypt STRINGS (or standard input with '-' or --stdin-name, or a prompted one) as YAML '!vault' values."""
    keyring = _setup(options, confirm=True)
    items: list[tuple[str | None, bytes]] = []
    if prompt:
        import getpass

        name = names[0] if names else None
        typed = getpass.getpass("String to encrypt (hidden): ")
        items.append((name, typed.encode("utf-8")))
    elif stdin_name or strings == (STDIO,) or not strings:
        if strings not in ((), (STDIO,)):
            raise OptionError("--stdin-name reads standard input: give no STRING with it")
        data = sys.stdin.buffer.read()
        if not data:
            raise UserError("standard input is empty: there is nothing to encrypt")
        items.append((stdin_name or (names[0] if names else None), data))
    else:
        if len(names) > len(strings):
            raise OptionError(f"{len(names)} --name given for {len(strings)} string(s)")
        items += [(names[index] if index < len(names) else None, text.encode("utf-8"))
                  for index, text in enumerate(strings)]
    blocks = []
    for name, value in items:
        vault = keyring.encrypt(value, options.get("encrypt_vault_id")).decode("ascii")
        body = "\n".join(_INDENT + line for line in vault.splitlines())
        blocks.append(f"{name}: !vault |\n{body}" if name else f"!vault |\n{body}")
    text = "\n".join(blocks) + "\n"
    if output and output != STDIO:
        _write(output, text.encode("utf-8"))
    else:
        sys.stdout.write(text)
    click.echo("Encryption successful", err=True)
    return ExitCode.OK
