"""The remote agent's source and the one-line bootstrap that starts it on a host.

The bootstrap is a ``python3 -c`` that reads a 10-digit length and then that many bytes of source from stdin, so
the command line stays short and the agent needs nothing installed on the host. It reads with ``os.read`` (no
buffering), so every byte after the source is left on stdin for the agent's frames. What it reads for the agent
is its first stage (``boot.py``), which reads the agent's sha256 and source after it the same way and runs the
agent from code compiled once per host and user.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import struct
import time
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


# Ansible's INTERPRETER_PYTHON_FALLBACK (ansible-core 2.21): the names discovery tries, in order.
FALLBACK_INTERPRETERS = ("python3.14", "python3.13", "python3.12", "python3.11", "python3.10", "python3.9",
                         "/usr/bin/python3", "python3")
# What discovery uses when it finds none of them, or its probe fails, as Ansible's _FALLBACK_INTERPRETER
FALLBACK_INTERPRETER = "/usr/bin/python3"
# How discovery went, given to the agent as its first argument and reported by its hello (runner.agent.remote)
DISCOVERY_FOUND, DISCOVERY_NONE, DISCOVERY_ERROR = "found", "none", "error"
# Before the start command starts the interpreter discovery found, it names on stderr the others the probe
# found, one a line after this mark: should the first not run (a version manager's shim for a version that is
# not selected), the controller starts the next (runner.connection.agent_client.DiscoveredInterpreterFailed).
ALSO_FOUND_MARK = "provisioning: also found "


def discovery_probe(fallback: tuple[str, ...]) -> str:
    """Ansible's discovery probe, byte for byte: each name quoted by hand, not escaped, so a name holding a quote
    breaks the whole probe, which Ansible reports as an unhandled error (and uses /usr/bin/python3)."""
    checks = "; ".join(f"command -v '{name}'" for name in fallback)
    return f"echo FOUND; {checks}; echo ENDFOUND"


def temp_dir_name() -> str:
    """A name for an agent's temporary directory, unique on the host: ansible-core's for the one it makes per task
    (``ansible-tmp-<time>-<controller pid>-<random>``), so that what knows Ansible's leftovers knows these."""
    return f"ansible-tmp-{time.time()}-{os.getpid()}-{int.from_bytes(os.urandom(6), 'big')}"  # below 2**48


def start_command(interpreter: str | None, fallback: tuple[str, ...] | None = None, tmpdir: str | None = None) -> str:
    """A shell command that starts the agent with the configured interpreter, or the one discovery finds.

    ``tmpdir``: the agent's temporary directory on the host (under ``remote_tmp``, ``~`` the agent's user's home),
    made when the agent first needs it and removed when it ends; given as the agent's last argument.

    One round trip does the discovery, as part of the agent's start: Ansible's probe (``discovery_probe`` over
    ``fallback``, Ansible's list by default) runs in a subshell, the first absolute path it prints is the
    interpreter, else /usr/bin/python3; the agent gets how it went (found, none, error) and that path (what
    Ansible reports, where ``sys.executable`` may be another: a version manager's shim runs another program) as
    its arguments. With
    no interpreter to start, the command says so on stderr and exits 127.
    """
    missing = f'echo "{NO_PYTHON_MARK}" >&2; exit {NO_PYTHON_EXIT}'
    bootstrap = shlex.quote(BOOTSTRAP)
    where = f" {shlex.quote(tmpdir)}" if tmpdir else ""
    if interpreter:
        script = (f"if command -v {shlex.quote(interpreter)} >/dev/null 2>&1; then "
                  f"exec {shlex.quote(interpreter)} -c {bootstrap}{where}; fi; {missing}")
        return "/bin/sh -c " + shlex.quote(script)
    probe = discovery_probe(FALLBACK_INTERPRETERS if fallback is None else fallback)
    # The probe's syntax error ends only the subshell; its output is then not FOUND...ENDFOUND: an error.
    script = (
        f"out=$(eval {shlex.quote(probe)} 2>/dev/null); p=; s={DISCOVERY_FOUND}; "
        f'case "$out" in FOUND*ENDFOUND*) set -f; IFS="\n"; '
        f'for l in $out; do case "$l" in /*) if [ -z "$p" ]; then p="$l"; '
        f'else printf "%s%s\\n" "{ALSO_FOUND_MARK}" "$l" >&2; fi;; esac; done; '
        f'[ -n "$p" ] || {{ s={DISCOVERY_NONE}; p={FALLBACK_INTERPRETER}; }};; '
        f"*) s={DISCOVERY_ERROR}; p={FALLBACK_INTERPRETER};; esac; "
        f'if command -v "$p" >/dev/null 2>&1; then exec "$p" -c {bootstrap} "$s" "$p"{where}; fi; {missing}'
    )
    return "/bin/sh -c " + shlex.quote(script)
