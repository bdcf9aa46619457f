"""The connection keeper in the suite: off for every run unless a test turns it on, and never left behind.

Runs of the suite (in-process, and the commands it starts, which inherit the environment) get
``PROVISIONING_PERSIST=0`` and a runtime directory of the session's own (``XDG_RUNTIME_DIR``), so a keeper a test
starts lives there, never in the tester's. At the session's end a keeper still running from that directory is
stopped and fails the session: a test must end what it started.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.warm.fork import PROCESS_NAME as WARM_PROCESS_NAME
from runner.warm.keeper_fork import PROCESS_NAME as KEEPER_PROCESS_NAME

KEEPER_MODULE = "runner.connection.keeper.daemon"
# The warm controller lives in the same runtime directory as the keeper, started by the same runs.
WARM_MODULE = "runner.warm.server"
# The names (``/proc/PID/comm``) of the same processes forked from a cold run instead.
FORKED_NAMES = {KEEPER_MODULE: KEEPER_PROCESS_NAME, WARM_MODULE: WARM_PROCESS_NAME}
STOP_TIMEOUT = 30
_RUNTIME_DIR = pytest.StashKey[str]()


def pytest_configure(config: pytest.Config) -> None:
    os.environ["PROVISIONING_PERSIST"] = "0"
    config.stash[_RUNTIME_DIR] = os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="provisioning-test-run-")


def keepers_under(directory: str, modules: tuple[str, ...] = (KEEPER_MODULE,)) -> dict[int, str]:
    """Keeper processes (or those of ``modules``) serving a socket under ``directory``, by pid: their command
    lines. A warm controller forked from a cold run, and a keeper forked from that, show their name and directory
    as their command line: they are known by their name and a descriptor open under ``directory`` (a lock, a
    socket, a log)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [word.decode(errors="replace") for word in argv]
        started = any(module in words for module in modules) and any(word.startswith(directory) for word in words)
        if started or _forked_under(entry, directory, {FORKED_NAMES.get(module) for module in modules}):
            found[int(entry.name)] = " ".join(words).strip()
    return found


def _forked_under(entry: Path, directory: str, names: set[str | None]) -> bool:
    try:
        if (entry / "comm").read_text().strip() not in names:
            return False
        return any(os.readlink(fd).startswith(directory + "/") for fd in (entry / "fd").iterdir())
    except OSError:
        return False


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    directory = session.config.stash.get(_RUNTIME_DIR, None)
    if not directory:
        return
    left = keepers_under(directory, (KEEPER_MODULE, WARM_MODULE))
    for pid in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    if left:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"connection keepers or warm controllers left running by the tests (stopped now): "
                                f"{left}", red=True)


def pytest_unconfigure(config: pytest.Config) -> None:
    directory = config.stash.get(_RUNTIME_DIR, None)
    if directory:
        shutil.rmtree(directory, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: it waits for its parent to reap it)."""
    try:
        return not Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[-1].startswith("Z")
    except OSError:
        return False


@pytest.fixture
def keeper_runtime(request: pytest.FixtureRequest) -> Iterator[Path]:
    """A runtime directory (0700) of the test's own for a keeper: ``XDG_RUNTIME_DIR`` of the runs that keep
    connections. Any keeper or warm controller serving there is ended with the test."""
    root = request.config.stash[_RUNTIME_DIR]
    directory = Path(tempfile.mkdtemp(prefix="keeper-", dir=root))
    try:
        yield directory
    finally:
        left = keepers_under(str(directory), (KEEPER_MODULE, WARM_MODULE))
        for pid in left:
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + STOP_TIMEOUT
        while left and time.monotonic() < deadline:  # each closes what it holds first
            time.sleep(0.1)
            left = {pid: line for pid, line in left.items() if _alive(pid)}
