"""A child that asked to die with its parent ends when the parent is killed with SIGKILL (which runs no code of the
parent's own), and learns at once when its parent is already gone."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest

from runner.util.parent_death import die_with_parent

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

# A parent that forks a child asking for SIGTERM at its parent's end, prints the child's pid, and waits.
PARENT = textwrap.dedent("""
    import os, signal, sys, time
    from runner.util.parent_death import die_with_parent
    parent = os.getpid()
    child = os.fork()
    if child == 0:
        if not die_with_parent(parent, signal.SIGTERM):
            os._exit(3)
        time.sleep(60)
        os._exit(0)
    print(child, flush=True)
    time.sleep(60)
""")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_the_child_ends_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    assert alive(child)
    parent.kill()
    parent.wait()
    deadline = time.monotonic() + 30
    while alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(child)


def test_a_parent_already_gone_is_reported() -> None:
    assert die_with_parent(os.getppid(), 0) is True  # signal 0: the request is cleared again
    assert die_with_parent(os.getppid() + 1_000_000, 0) is False
