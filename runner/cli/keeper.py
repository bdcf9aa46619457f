"""The commands' side of the connection keeper: whether a run keeps its connections, decided before its workers
fork."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.cli.project import warn


def keep_connections(config: Any) -> None:
    """Route the run's SSH connections through this user's keeper (started by the first of them if none runs)
    when ``persist`` is on. A socket directory that is not safe is warned about, and the run connects
    directly."""
    from runner.connection.keeper import KeeperChoice, use_keeper
    from runner.warm import keep_warm

    persist = float(config.persist or 0)
    keep_warm(None)
    if persist <= 0:
        use_keeper(None)
        return
    from runner.connection.keeper.place import KeeperPlaceError, checked_dir

    try:
        use_keeper(KeeperChoice(checked_dir(), persist))
        keep_warm(persist)  # and the next run is served by a warm controller, kept as long
        # The workers' way to the keeper, imported once here before they fork rather than by each of them at its
        # first connection; and so a warm controller, which learns what its runs import (never what their
        # workers do), has it imported ahead for the next run.
        import runner.connection.keeper.transport  # noqa: F401
    except KeeperPlaceError as exc:
        warn(f"{exc}; connecting directly, without keeping connections for the next run")
        use_keeper(None)


def start_keeper_ahead(config: Any, options: dict[str, Any]) -> None:
    """Start this user's keeper while the playbook compiles, for a run that will most likely connect over SSH:
    ``persist`` on, no ``-c local``, and an inventory source other than a host list of localhost alone (without
    one, only the implicit localhost exists, reached locally). A run that turns out to make no SSH connection
    leaves a keeper holding nothing, which ends after ``persist`` idle seconds; an unsafe socket directory is left
    to ``keep_connections`` to report."""
    from runner.cli.project import missing_default_inventory

    if float(config.persist or 0) <= 0 or options.get("connection") == "local":
        return
    sources = [str(source) for source in config.inventory if str(source) not in missing_default_inventory(config)]
    if all(_only_localhost(source) for source in sources):
        return
    from runner.connection.keeper.place import KeeperPlaceError
    from runner.connection.keeper.start import start_ahead
    from runner.warm.fork import start_keeper

    try:
        start_ahead(float(config.persist), fork=start_keeper)
    except (KeeperPlaceError, OSError):
        return


def _only_localhost(source: str) -> bool:
    """A host list (``-i localhost,``) naming only hosts reached over the local connection."""
    from runner.connection.settings import LOCAL_NAMES

    if "," not in source or Path(source).expanduser().exists():
        return False
    return all(item.strip() in ("", *LOCAL_NAMES) for item in source.split(","))


def keeper_lines() -> list[str]:
    """What ``persist-status`` prints: the keeper's pid, its idle limit and each connection it holds; the warm
    controller's pid and the runs it served."""
    from runner.connection.keeper.place import KeeperPlaceError, keeper_dir
    from runner.connection.keeper.start import keeper_status
    from runner.errors import UserError
    from runner.warm.control import warm_lines

    try:
        status = keeper_status()
        warm = warm_lines()
    except KeeperPlaceError as exc:
        raise UserError(str(exc)) from None
    if status is None:
        lines = [f"no connection keeper running (socket directory {keeper_dir()})"]
    else:
        lines = [f"connection keeper pid {status['pid']} at {keeper_dir()}, persist {status['persist']:g} s"]
        lines.extend(f"  {connection['host']}: {connection['agents']} agent(s), {connection['lent']} lent, "
                     f"{connection['borrowers']} run(s) using it" for connection in status.get("connections") or ())
    return lines + warm
