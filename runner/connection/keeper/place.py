"""Where the keeper's socket lives: in this user's private runtime directory (``runner.util.private_dir``), which
it shares with the warm controller."""

from __future__ import annotations

from runner.util.private_dir import KeeperPlaceError, boot_id, checked_dir, keeper_dir

# Each build has its own keeper, named by its build id (runner.connection.keeper.wire.build_id): two installs of
# different versions (an upgrade while a run is going, two checkouts) never stop each other's keeper; an older one
# ends by itself when idle.
SOCKET_PATTERN = "keeper-*.sock"


def socket_name(build: str) -> str:
    return f"keeper-{build}.sock"


def lock_name(build: str) -> str:
    return f"keeper-{build}.lock"


def log_name(build: str) -> str:
    return f"keeper-{build}.log"


__all__ = ["SOCKET_PATTERN", "KeeperPlaceError", "boot_id", "checked_dir", "keeper_dir", "lock_name", "log_name",
           "socket_name"]
