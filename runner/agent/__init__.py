"""The remote agent's source and the one-line bootstrap that starts it on a host.

The bootstrap is a ``python3 -c`` that reads a 10-digit length and then that many bytes of source from stdin, so
the command line stays short and the agent needs nothing installed on the host. It reads with ``os.read`` (no
buffering), so every byte after the source is left on stdin for the agent's frames. What it reads for the agent
is its first stage (``boot.py``), which reads the agent's sha256 and source after it the same way and runs the
agent from code compiled once per host and user.
"""

from __future__ import annotations

import hashlib
import shlex
import struct
from functools import cache
from importlib import resources

# The frame header, shared with remote.py (which keeps its own copy: it must run alone on the target).
FRAME_HEADER = struct.Struct("!II")

BOOTSTRAP = ('import os;r=lambda n,b=b"":b if len(b)>=n else r(n,b+(os.read(0,n-len(b)) or exit(3)));'
             "exec(r(int(r(10))))")
NO_PYTHON_EXIT = 127
NO_PYTHON_MARK = "provisioning: no python interpreter"


# runner/agent/terminal.py's exit code when neither a password prompt nor the command's output came in time
TERMINAL_TIMED_OUT = 125


@cache
def _source(name: str) -> bytes:
    return resources.files(__package__).joinpath(name).read_bytes()


def agent_source() -> bytes:
    return _source("remote.py")


def _payload(source: bytes) -> bytes:
    """What the bootstrap reads from stdin: the source's length in 10 digits, then the source."""
    return b"%010d" % len(source) + source


@cache
def agent_payload() -> bytes:
    """What starts the agent: its first stage for the bootstrap, then the agent's sha256 and source for that."""
    source = agent_source()
    return _payload(_source("boot.py")) + hashlib.sha256(source).hexdigest().encode() + _payload(source)


def terminal_command(interpreter: str | None, prompt: str, wait: float, command: str, marker: str | None = None,
                     *, feeds_input: bool = False) -> str:
    """A shell command that runs ``command`` on a pseudo-terminal of the host and types a password at its first
    ``prompt`` (a regular expression), waiting ``wait`` seconds for it (runner/agent/terminal.py; its source and
    the password come on stdin, see ``terminal_payload``). With ``marker``, ``command`` starts an agent, relayed
    byte for byte from the marker on. With ``feeds_input``, the stdin that follows the password reaches
    ``command`` on a pipe as its fd 3 (the terminal is its stdin)."""
    program = shlex.quote(interpreter or "python3")
    values = [prompt, f"{wait:g}", command]
    if marker is not None or feeds_input:
        values.append(marker or "")
    if feeds_input:
        values.append("stdin")
    arguments = " ".join(shlex.quote(value) for value in values)
    return f"{program} -c {shlex.quote(BOOTSTRAP)} {arguments}"


def terminal_payload(password: str) -> bytes:
    return _payload(_source("terminal.py")) + password.encode() + b"\n"


def start_command(interpreter: str | None) -> str:
    """A shell command that starts the agent with the configured interpreter or the first python3 found.

    One round trip does the discovery: the configured interpreter, else ``python3`` on PATH, else
    ``/usr/bin/python3``; with none of them the command says so on stderr and exits 127.
    """
    candidates = [interpreter] if interpreter else ["python3", "/usr/bin/python3"]
    tries = " ".join(shlex.quote(c) for c in candidates)
    script = (
        f'for p in {tries}; do if command -v "$p" >/dev/null 2>&1; then exec "$p" -c {shlex.quote(BOOTSTRAP)}; fi; '
        f'done; echo "{NO_PYTHON_MARK}" >&2; exit {NO_PYTHON_EXIT}'
    )
    return "/bin/sh -c " + shlex.quote(script)
