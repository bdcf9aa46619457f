"""The directory of this user's background processes (the connection keeper, the warm controller): one only its
user can enter, in a runtime directory that a reboot empties.

``$XDG_RUNTIME_DIR/provisioning`` (a per-user tmpfs on systemd machines) when that is set, else
``/tmp/provisioning-$UID``. The directory must be the user's own, a real directory (not a link) and closed to
everyone else (no group or other permission bits): anything else is refused, since whoever can reach a socket in it
could run commands on every host the keeper holds, or as this user through the warm controller.
"""

from __future__ import annotations

import os
import socket
import stat
import struct

TYPE_CHECKING = False  # typing's, without importing typing: the warm client imports this module at every start
if TYPE_CHECKING:
    from pathlib import Path


class KeeperPlaceError(Exception):
    """The keeper's directory is not safe to use (another owner, open permissions, not a directory)."""


def keeper_path() -> str:
    """The directory's path as a string: what the warm controller's client uses, which never loads pathlib."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and os.path.isdir(runtime):
        return os.path.join(runtime, "provisioning")
    return f"/tmp/provisioning-{os.getuid()}"


def keeper_dir() -> Path:
    from pathlib import Path

    return Path(keeper_path())


def check_path(directory: str, *, create: bool = True) -> None:
    """Check that ``directory`` (made 0700 if missing, when ``create``) is a directory owned by this user with no
    permission for anyone else. Raises ``KeeperPlaceError`` saying what is wrong."""
    if create:
        try:
            os.mkdir(directory, 0o700)
        except FileExistsError:
            pass
        except OSError as exc:
            raise KeeperPlaceError(f"cannot make the keeper directory {directory}: {exc.strerror}") from None
    try:
        info = os.lstat(directory)
    except OSError as exc:
        raise KeeperPlaceError(f"cannot read the keeper directory {directory}: {exc.strerror}") from None
    if not stat.S_ISDIR(info.st_mode):
        raise KeeperPlaceError(f"refusing the keeper directory {directory}: it is not a directory (a link or a file)")
    if info.st_uid != os.getuid():
        raise KeeperPlaceError(f"refusing the keeper directory {directory}: it is owned by uid {info.st_uid}, "
                               f"not by this user (uid {os.getuid()})")
    if info.st_mode & 0o077:
        raise KeeperPlaceError(f"refusing the keeper directory {directory}: its mode is "
                               f"{stat.S_IMODE(info.st_mode):04o}; it must be 0700 (chmod 700 {directory})")


def checked_dir(directory: Path | None = None, *, create: bool = True) -> Path:
    """``directory`` (by default ``keeper_dir()``), made 0700 if missing, after ``check_path``'s checks."""
    directory = directory or keeper_dir()
    check_path(str(directory), create=create)
    return directory


def boot_id() -> str:
    """This boot's id: a keeper from an earlier boot (a socket file left in a /tmp that survived) is never used."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as handle:
            return handle.read().strip()
    except OSError:
        return "unknown"


def peer_uid(sock: socket.socket) -> int:
    """The uid of the process at the other end of a Unix socket, as the kernel says (SO_PEERCRED): a socket in
    this directory serves only its owner."""
    credentials = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", credentials)
    return int(uid)
