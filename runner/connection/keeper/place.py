"""Where the keeper's socket lives: in this user's private runtime directory (``runner.util.private_dir``), which
it shares with the warm controller."""

from __future__ import annotations

from runner.util.private_dir import KeeperPlaceError, boot_id, checked_dir, keeper_dir

SOCKET_NAME = "keeper.sock"
LOCK_NAME = "keeper.lock"
LOG_NAME = "keeper.log"

__all__ = ["LOCK_NAME", "LOG_NAME", "SOCKET_NAME", "KeeperPlaceError", "boot_id", "checked_dir", "keeper_dir"]
