"""The keeper's socket directory: made 0700, and refused with a clear reason when it is not the user's alone."""

from __future__ import annotations

import fnmatch
import os
import stat
from pathlib import Path

import pytest

from runner.connection.keeper.place import (
    SOCKET_PATTERN,
    KeeperPlaceError,
    build_of,
    checked_dir,
    keeper_dir,
    lock_name,
    socket_name,
)


def test_a_missing_directory_is_made_private(tmp_path: Path) -> None:
    directory = checked_dir(tmp_path / "provisioning")
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o750, 0o701, 0o777])
def test_a_directory_open_to_others_is_refused(tmp_path: Path, mode: int) -> None:
    directory = tmp_path / "provisioning"
    directory.mkdir()
    directory.chmod(mode)
    with pytest.raises(KeeperPlaceError, match=f"its mode is {mode:04o}; it must be 0700"):
        checked_dir(directory)


def test_a_link_is_refused(tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir(mode=0o700)
    (tmp_path / "provisioning").symlink_to(tmp_path / "elsewhere")
    with pytest.raises(KeeperPlaceError, match="not a directory"):
        checked_dir(tmp_path / "provisioning")


@pytest.mark.skipif(os.getuid() != 0, reason="giving a directory away needs root")
def test_another_users_directory_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "provisioning"
    directory.mkdir(mode=0o700)
    os.chown(directory, 65534, 65534)
    with pytest.raises(KeeperPlaceError, match="owned by uid 65534, not by this user"):
        checked_dir(directory)


def test_the_runtime_directory_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert keeper_dir() == tmp_path / "provisioning"
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "missing"))
    assert keeper_dir() == Path(f"/tmp/provisioning-{os.getuid()}")


def test_a_keepers_socket_names_the_build_its_lock_and_log_are_named_by() -> None:
    """persist-stop waits on the lock of each keeper it finds by its socket: named as the keeper names it."""
    name = socket_name("0a1b2c")
    assert fnmatch.fnmatch(name, SOCKET_PATTERN)
    assert build_of(name) == "0a1b2c"
    assert lock_name(build_of(name)) == "keeper-0a1b2c.lock"


def test_a_file_that_is_no_keepers_socket_names_no_build() -> None:
    with pytest.raises(ValueError, match="not a keeper's socket"):
        build_of("warm-0a1b2c.sock")
