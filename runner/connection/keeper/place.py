"""Where the keeper's socket lives: in this user's private runtime directory (``runner.util.private_dir``), which
it shares with the warm controller."""

from __future__ import annotations

from runner.util.private_dir import KeeperPlaceError, boot_id, checked_dir, keeper_dir

# Each build has its own keeper, named by its build id (runner.connection.keeper.wire.build_id): two installs of
# different versions (an upgrade while a run is going, two checkouts) never stop each other's keeper; an older one
# ends by itself when idle.
_PREFIX = "keeper-"
_SOCKET_SUFFIX = ".sock"
SOCKET_PATTERN = f"{_PREFIX}*{_SOCKET_SUFFIX}"


def socket_name(build: str) -> str:
    return f"{_PREFIX}{build}{_SOCKET_SUFFIX}"


def build_of(socket_file: str) -> str:
    """The build whose keeper listens on the socket named ``socket_file``, one ``SOCKET_PATTERN`` matches
    (``socket_name``'s inverse): its lock and log are that build's ``lock_name`` and ``log_name``."""
    if not (socket_file.startswith(_PREFIX) and socket_file.endswith(_SOCKET_SUFFIX)):
        raise ValueError(f"not a keeper's socket: {socket_file}")
    return socket_file[len(_PREFIX):-len(_SOCKET_SUFFIX)]


def lock_name(build: str) -> str:
    return f"{_PREFIX}{build}.lock"


def start_lock_name(build: str) -> str:
    """The lock whoever starts that build's keeper holds while it does (``start.ensure_keeper``)."""
    return f"{_PREFIX}{build}.start"


def log_name(build: str) -> str:
    return f"{_PREFIX}{build}.log"


__all__ = ["SOCKET_PATTERN", "KeeperPlaceError", "boot_id", "build_of", "checked_dir", "keeper_dir", "lock_name",
           "log_name", "socket_name", "start_lock_name"]
