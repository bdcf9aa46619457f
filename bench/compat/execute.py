"""Running one target: its workspace, its setup targets, then the target itself, under a time limit, with
everything it prints kept in a log file. A target passes when its run exits 0."""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bench.compat.hosts import write_inventory
from bench.compat.runners import Runner
from bench.compat.targets import Target, TargetSet
from bench.compat.workspace import Workspace
from bench.hosts import HostSet

KILL_GRACE = 10.0  # seconds between SIGTERM and SIGKILL for a run over its time limit
# Runs under way, so an interrupted suite ends them (each is its own session: a ^C never reaches it)
_running: set[subprocess.Popen] = set()
_running_lock = threading.Lock()
_stopping = threading.Event()


@dataclass(frozen=True)
class Outcome:
    target: str
    passed: bool
    rc: int | None  # None: killed at the time limit
    seconds: float
    log: Path
    detail: str = ""


def run_target(target: Target, targets: TargetSet, runner: Runner, hosts: HostSet, log_dir: Path,
               work_base: Path, timeout: float) -> Outcome:
    log = log_dir / f"{target.name}.log"
    workspace = Workspace.create(target, targets, work_base)
    started = time.monotonic()
    try:
        write_inventory(workspace.inventory, hosts)
        shim_dir = runner.write_shims(workspace.root / "bin")
        # output_dir is a path on the hosts as well as here: role tasks write there on testhost
        hosts.run_everywhere(f"mkdir -p {shlex.quote(str(workspace.output_dir))}")
        with open(log, "w") as stream:
            for setup_name in target.setup_targets:
                rc = _run_one(targets[setup_name], workspace, runner, shim_dir, stream, timeout)
                if rc != 0:
                    return Outcome(target.name, False, rc, time.monotonic() - started, log,
                                   f"setup target {setup_name} failed")
            rc = _run_one(target, workspace, runner, shim_dir, stream, timeout)
        detail = "" if rc is not None else f"killed after {timeout:.0f}s"
        return Outcome(target.name, rc == 0, rc, time.monotonic() - started, log, detail)
    finally:
        try:
            hosts.run_everywhere(f"rm -rf {shlex.quote(str(workspace.root))}")
        except Exception:  # a host a target broke must not stop the suite; the next target shows it
            pass
        workspace.remove()


def _run_one(target: Target, workspace: Workspace, runner: Runner, shim_dir: Path, stream: TextIO,
             timeout: float) -> int | None:
    """The target's command's exit code, or None when it was killed at the time limit."""
    command, cwd = workspace.command(target)
    env = workspace.environment(target, runner, shim_dir, dict(os.environ))
    stream.write(f"### {target.name}: {shlex.join(command)} (in {cwd})\n")
    stream.flush()
    # its own session, so a timeout ends everything it started, by process group
    with _running_lock:
        if _stopping.is_set():
            raise Interrupted(target.name)
        process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=stream,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        _running.add(process)
    try:
        rc: int | None = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _end_group(process)
        rc = None
    finally:
        with _running_lock:
            _running.discard(process)
    stream.write(f"### {target.name}: {'exit ' + str(rc) if rc is not None else 'killed at the time limit'}\n")
    stream.flush()
    return rc


class Interrupted(Exception):
    """The suite is stopping: no new run starts."""


def stop_all() -> None:
    """End every run under way and start no other (the suite was interrupted)."""
    with _running_lock:
        _stopping.set()
        running = list(_running)
    for process in running:
        _end_group(process)


def _end_group(process: subprocess.Popen) -> None:
    """SIGTERM to the run's process group, then SIGKILL to whatever of it is left."""
    _signal_group(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=KILL_GRACE)
    except subprocess.TimeoutExpired:
        pass
    _signal_group(process.pid, signal.SIGKILL)
    process.wait()


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass
