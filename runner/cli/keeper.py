"""The commands' side of the connection keeper: find or start it before a run's workers fork."""

from __future__ import annotations

from typing import Any

from runner.cli.project import warn


def keep_connections(config: Any) -> None:
    """Route the run's SSH connections through this user's keeper (started if none runs) when ``persist`` is on.
    A keeper that cannot be used (an unsafe socket directory, a start that failed) is warned about, and the run
    connects directly."""
    from runner.connection.keeper import use_keeper

    persist = float(config.persist or 0)
    if persist <= 0:
        use_keeper(None)
        return
    from runner.connection.keeper.place import KeeperPlaceError
    from runner.connection.keeper.start import KeeperStartError, ensure_keeper

    try:
        use_keeper(ensure_keeper(persist))
    except (KeeperPlaceError, KeeperStartError) as exc:
        warn(f"{exc}; connecting directly, without keeping connections for the next run")
        use_keeper(None)
