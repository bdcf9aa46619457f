"""A forked daemon's name and command line: nothing of the command it was forked from shows."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

NAMED = textwrap.dedent(
    """
    import os, sys
    from runner.warm.process import name_process
    name_process(sys.argv[1], os.environ["TITLE"])
    with open("/proc/self/comm") as comm, open("/proc/self/cmdline", "rb") as line:
        print(comm.read().strip())
        print(line.read().rstrip(b"\\0").replace(b"\\0", b" ").decode())
    print(sys.argv[3])
    """
)


def named(name: str, title: str, command: str) -> list[str]:
    """The name, command line and last argument of a process given ``command`` and then named (the title comes
    in the environment: the arguments' room is all the command line has)."""
    out = subprocess.run(
        [sys.executable, "-c", NAMED, name, "-", command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TITLE": title},
    ).stdout
    return out.splitlines()


def test_the_command_line_is_the_title_and_none_of_the_command() -> None:
    comm, line, argv = named("prov-warm", "prov-warm /run/x", "msg={{ lookup('pipe', 'sleep 33') }}")
    assert comm == "prov-warm"
    assert line == "prov-warm /run/x"
    assert "sleep" not in line
    assert argv == "msg={{ lookup('pipe', 'sleep 33') }}"  # the interpreter's copy is untouched


def test_a_title_longer_than_the_arguments_is_cut_to_their_room() -> None:
    comm, line, _ = named("n", "t" * 4000, "x")
    assert comm == "n"
    assert set(line) == {"t"}
    assert len(line) < 4000
