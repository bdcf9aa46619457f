"""What makes the keeper lend a connection or an agent: every deciding setting and file, never a password."""

from __future__ import annotations

import os
from pathlib import Path

from runner.connection.keeper.identity import agent_key, connection_key, connection_settings
from runner.connection.settings import BecomeSettings, ConnectionSettings

SALT = b"s" * 32


def _settings(tmp_path: Path, **changes: object) -> ConnectionSettings:
    key = tmp_path / "id_ed25519"
    if not key.exists():
        key.write_text("a key\n")
    known, config = tmp_path / "known_hosts", tmp_path / "ssh_config"
    for path in (known, config):
        if not path.exists():
            path.write_text("")
    values: dict[str, object] = {"name": "web1", "address": "127.0.0.9", "user": "root",
                                 "private_key_file": str(key), "known_hosts_file": str(known),
                                 "ssh_args": f"-F {config}", **changes}
    return ConnectionSettings(**values)  # type: ignore[arg-type]


def test_the_same_settings_give_the_same_key_whatever_the_host_is_called(tmp_path: Path) -> None:
    assert connection_key(_settings(tmp_path), SALT) == connection_key(_settings(tmp_path, name="alias"), SALT)


def test_a_deciding_setting_changes_the_key(tmp_path: Path) -> None:
    base = connection_key(_settings(tmp_path), SALT)[0]
    for change in ({"user": "deploy"}, {"port": 2222}, {"host_key_checking": False}, {"timeout": 3.0},
                   {"password": "secret"}, {"ssh_common_args": "-o Compression=yes"}):
        assert connection_key(_settings(tmp_path, **change), SALT)[0] != base, change


def test_become_settings_decide_the_agent_not_the_connection(tmp_path: Path) -> None:
    plain, become = _settings(tmp_path), _settings(tmp_path, become=True, become_user="deploy")
    assert connection_key(plain, SALT) == connection_key(become, SALT)
    assert "become_password" not in connection_settings(_settings(tmp_path, become_password="secret"))
    keys = {agent_key(plain, None, SALT), agent_key(plain, BecomeSettings("deploy"), SALT),
            agent_key(plain, BecomeSettings("deploy", password="one"), SALT),
            agent_key(plain, BecomeSettings("deploy", password="two"), SALT),
            agent_key(plain, BecomeSettings("deploy", method="su"), SALT)}
    assert len(keys) == 5


def test_a_changed_key_file_changes_the_key(tmp_path: Path) -> None:
    settings = _settings(tmp_path)
    before, files = connection_key(settings, SALT)
    assert {str(tmp_path / name) for name in ("id_ed25519", "known_hosts", "ssh_config")} <= set(files)
    key = tmp_path / "id_ed25519"
    key.write_text("another key\n")
    assert connection_key(settings, SALT)[0] != before
    rewritten = connection_key(settings, SALT)[0]
    os.utime(key, ns=(1, 1))  # the same content, touched
    assert connection_key(settings, SALT)[0] != rewritten


def test_no_password_is_in_what_the_keeper_is_sent(tmp_path: Path) -> None:
    settings = _settings(tmp_path, password="hunter2", become_password="hunter3")
    key, _ = connection_key(settings, SALT)
    assert "hunter" not in key
    assert connection_key(settings, b"t" * 32)[0] != key  # an HMAC under the keeper's salt, not a bare hash


def test_the_discovery_names_decide_the_agent_and_the_mode_nothing(tmp_path: Path) -> None:
    """Another fallback list may discover another interpreter; the discovery mode only says what is warned of."""
    plain = _settings(tmp_path)
    listed = _settings(tmp_path, interpreter_fallback=("/usr/bin/python3",))
    assert connection_key(plain, SALT) == connection_key(listed, SALT)
    assert agent_key(plain, None, SALT) != agent_key(listed, None, SALT)
    silent = _settings(tmp_path, interpreter_mode="auto_silent")
    assert silent == plain and agent_key(silent, None, SALT) == agent_key(plain, None, SALT)
    assert "interpreter_mode" not in connection_settings(silent)
