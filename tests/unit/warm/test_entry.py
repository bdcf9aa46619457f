"""A command run in this process (a cold run, or a warm controller's child) ends as the interpreter would end it,
without its teardown: threads that are not daemons finish, atexit functions run, buffered output is flushed, and
the exit code is the command's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# A stand-in command: output left in stdout's buffer, an atexit function, a thread still working, exit code 3.
COMMAND = """
import atexit, os, sys, threading, time, types
from runner import warm
from runner.warm.entry import run_command

def main():
    sys.stdout.write("buffered")
    atexit.register(lambda: open(sys.argv[1], "a").write("atexit "))
    def late():
        time.sleep(0.2)
        open(sys.argv[1], "a").write("thread ")
    threading.Thread(target=late).start()
    raise SystemExit(3)

sys.modules["stand_in"] = types.SimpleNamespace(main=main)
warm.COMMANDS["stand-in"] = "stand_in:main"
os._exit(run_command("stand-in"))
"""


def test_a_command_ends_as_the_interpreter_would_end_it(tmp_path: Path) -> None:
    trace = tmp_path / "trace"
    ended = subprocess.run([sys.executable, "-c", COMMAND, str(trace)], capture_output=True, text=True, check=False)
    assert ended.returncode == 3
    assert ended.stdout == "buffered"
    assert trace.read_text() == "thread atexit "
