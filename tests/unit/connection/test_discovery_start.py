"""Interpreter discovery in the agent's start command (runner.agent.start_command): ansible-core's probe over the
fallback names, the first absolute path it prints, else /usr/bin/python3, and how it went as the agent's argument,
all in the one command that starts the agent. Run here with /bin/sh and a stand-in program that reports what it
was started as."""

from __future__ import annotations

import asyncio
import json
import subprocess
from pathlib import Path

import pytest

from runner.agent import (
    ALSO_FOUND_MARK,
    FALLBACK_INTERPRETERS,
    FRAME_HEADER,
    agent_payload,
    discovery_probe,
    start_command,
)
from runner.connection import ConnectionSettings, HostSession
from runner.connection.session import Discovery
from runner.module_index import ModuleIndex

# What the stand-in reads from stdin instead of the agent: a program that prints its argument and executable.
REPORT = b"import sys; print(sys.argv[1], sys.argv[2])"


def _payload(source: bytes) -> bytes:
    return b"%010d" % len(source) + source


def _start(command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, shell=True, input=_payload(REPORT).decode(), capture_output=True, text=True, timeout=30, check=False
    )


@pytest.fixture
def python_named(tmp_path: Path) -> Path:
    """A link to /usr/bin/python3 under a name no PATH holds."""
    link = tmp_path / "python-found"
    link.symlink_to("/usr/bin/python3")
    return link


def test_the_probe_is_ansibles_byte_for_byte() -> None:
    assert discovery_probe(("python3.11", "/usr/bin/python3")) == (
        "echo FOUND; command -v 'python3.11'; command -v '/usr/bin/python3'; echo ENDFOUND"
    )
    assert FALLBACK_INTERPRETERS[0] == "python3.14" and FALLBACK_INTERPRETERS[-2:] == ("/usr/bin/python3", "python3")


def test_the_first_name_found_is_started(python_named: Path) -> None:
    done = _start(start_command(None, ("/nonexistent/python", str(python_named), "/usr/bin/python3")))
    assert done.stdout.split() == ["found", str(python_named)], done.stderr


def test_none_found_starts_usr_bin_python3_and_says_so() -> None:
    done = _start(start_command(None, ("/usr/bin/does_not_exist",)))
    assert done.stdout.split() == ["none", "/usr/bin/python3"], done.stderr


def test_a_name_that_breaks_the_probe_is_an_error_and_starts_usr_bin_python3() -> None:
    done = _start(start_command(None, ("'i_have_a_single_quote",)))
    assert done.stdout.split() == ["error", "/usr/bin/python3"], done.stderr


def test_a_configured_interpreter_is_started_without_discovery(python_named: Path) -> None:
    done = subprocess.run(
        start_command(str(python_named)),
        shell=True,
        input=_payload(b"import sys; print(len(sys.argv), sys.executable)").decode(),
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.stdout.split() == ["1", str(python_named)], done.stderr
    missing = _start(start_command("/nonexistent/python"))
    assert missing.returncode == 127 and "no python interpreter" in missing.stderr


def test_the_agent_reports_how_discovery_went(python_named: Path) -> None:
    """The agent's hello carries the start command's argument (runner/agent/remote.py)."""
    hello = json.dumps({"op": "hello"}).encode()
    with subprocess.Popen(
        start_command(None, (str(python_named),)),
        shell=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    ) as agent:
        # a session of its own: the agent ends its whole process group when its stdin closes
        assert agent.stdin is not None and agent.stdout is not None
        agent.stdin.write(agent_payload() + FRAME_HEADER.pack(len(hello), 0) + hello)
        agent.stdin.flush()
        size = FRAME_HEADER.unpack(agent.stdout.read(FRAME_HEADER.size))[0]
        reply = json.loads(agent.stdout.read(size))
        agent.kill()
    assert reply["discovery"] == "found" and reply["discovered"] == str(python_named)


def test_the_others_found_are_named_on_stderr_before_the_first_starts(python_named: Path, tmp_path: Path) -> None:
    broken = tmp_path / "python-broken"
    broken.write_text("#!/bin/sh\necho 'shim: python-broken: command not found' >&2\nexit 127\n")
    broken.chmod(0o755)
    done = _start(start_command(None, (str(broken), str(python_named))))
    assert done.returncode == 127
    assert f"{ALSO_FOUND_MARK}{python_named}\n" in done.stderr and "command not found" in done.stderr


def test_a_discovered_interpreter_that_does_not_start_gives_way_to_the_next(python_named: Path, tmp_path: Path) -> None:
    """A version manager's shim for a version it has not selected is found first, and fails: the agent starts
    with the next name the probe found (runner.connection.session.HostSession), in another start."""
    broken = tmp_path / "python-broken"
    broken.write_text("#!/bin/sh\nexit 127\n")
    broken.chmod(0o755)
    settings = ConnectionSettings(
        name="localhost",
        address="localhost",
        connection="local",
        interpreter_fallback=(str(broken), "/nonexistent/python", str(python_named)),
    )

    async def start() -> Discovery | None:
        session = HostSession(settings, ModuleIndex())
        try:
            await session.agent()
            return session.discovery()
        finally:
            await session.close()

    discovery = asyncio.run(start())
    assert discovery is not None
    assert (discovery.interpreter, discovery.outcome) == (str(python_named), "found")
    assert discovery.tried == settings.interpreter_fallback


@pytest.mark.parametrize("discover", [False, True])
def test_the_agents_temporary_directory_is_its_last_argument_quoted(python_named: Path, discover: bool) -> None:
    """Where the agent keeps its files (under remote_tmp) comes last, as one word however it is spelled; the
    interpreter's path too, quoted as ansible-core quotes it in its commands."""
    tmpdir = "/r e m o t e/t m p/ansible-tmp-1.5-2-3"
    spaced = python_named.with_name("p y t h o n")
    spaced.symlink_to(python_named)
    command = start_command(None, (str(spaced),), tmpdir) if discover else start_command(str(spaced), None, tmpdir)
    done = subprocess.run(command, shell=True, input=_payload(b"import sys; print(sys.argv[1:])").decode(),
                          capture_output=True, text=True, timeout=30, check=False)
    expected = ["found", str(spaced), tmpdir] if discover else [tmpdir]
    assert done.stdout.strip() == repr(expected), done.stderr
    assert f"'\"'\"'{tmpdir}'\"'\"'" in command  # one word inside the /bin/sh -c '...' it runs in
