"""A raw command escalated on a terminal (su with a password, runner/agent/terminal.py) gets the input it is given
(an action plugin's ``in_data``) on a pipe of its own, byte for byte and ended, while su reads the password on
the terminal. Over the local connection, with a stand-in for su (``ansible_become_exe``) that asks for the
password on its terminal as su does, then runs the command it is given: no root and no test host needed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from runner.connection import ConnectionSettings, HostSession
from runner.connection.become import BecomeFailure
from runner.connection.settings import BecomeSettings
from runner.module_index import ModuleIndex

# su's arguments as runner/connection/become.py gives them: -s /bin/sh USER -c COMMAND
FAKE_SU = """#!/bin/sh
printf 'Password: '
stty -echo
IFS= read -r password
stty echo
echo
[ "$password" = "s3cret" ] || { echo "su: Authentication failure"; exit 1; }
shift 3
exec /bin/sh "$@"
"""


@pytest.fixture
def become(tmp_path: Path) -> BecomeSettings:
    su = tmp_path / "su"
    su.write_text(FAKE_SU)
    su.chmod(0o755)
    return BecomeSettings(method="su", user="nobody", password="s3cret", exe=str(su))


def raw(command: str, become: BecomeSettings, stdin: bytes | None) -> tuple[int, bytes]:
    async def run() -> tuple[int, bytes]:
        session = HostSession(ConnectionSettings(name="localhost", address="localhost", connection="local"),
                              ModuleIndex())
        try:
            result = await session.raw(command, become=become, stdin=stdin, timeout=30)
        finally:
            await session.close()
        return result.rc, result.stdout

    return asyncio.run(run())


def test_the_input_reaches_the_command_whole_and_ended(become: BecomeSettings) -> None:
    data = b"".join(b"line %d\x03\x04\x1a\x7f\n" % number for number in range(5000)) + b"no newline at the end"
    rc, stdout = raw("wc -c; echo read-to-the-end", become, data)
    assert rc == 0
    assert stdout == f"{len(data)}\nread-to-the-end\n".encode()  # nothing echoed, nothing taken as a control


def test_the_input_is_stdin_and_the_password_is_not_in_it(become: BecomeSettings) -> None:
    rc, stdout = raw("cat", become, b"given\n")
    assert (rc, stdout) == (0, b"given\n")


def test_a_command_that_reads_none_of_its_input_still_ends(become: BecomeSettings) -> None:
    rc, stdout = raw("echo done; exit 4", become, b"x" * 1_000_000)
    assert (rc, stdout) == (4, b"done\n")


def test_without_input_the_command_runs_as_before(become: BecomeSettings) -> None:
    assert raw("echo plain", become, None) == (0, b"plain\n")


def test_a_wrong_password_with_input_still_fails_as_such(become: BecomeSettings) -> None:
    with pytest.raises(BecomeFailure, match="Incorrect su password"):
        raw("cat", BecomeSettings(method="su", user="nobody", password="wrong", exe=become.exe), b"data")
