"""Ansible's debug log (``ANSIBLE_DEBUG``, the ``debug`` setting): the engine's decisions, one line each.

ansible-core's ``display.debug`` writes ``<pid, 6 wide> <time, 5 decimals>: <message>`` to stdout whatever the
verbosity, its worker processes handing their lines to the controller, which stamps them: every line carries the
controller's pid. Ours is the same: the command calls ``DEBUG_LOG.configure`` once, before its workers fork; a
worker inherits the setting and the controller's pid, and writes its own lines to the stdout it inherited (the
run's, also under the warm controller, whose child for the run takes the client's descriptors).

Each line goes to ``sys.stdout`` as it is when written (the views' stream: a live view that redirects it keeps
the line above its live area) and is flushed at once, one ``write`` of a whole line, so that lines of several
processes never interleave inside a line and none waits in a buffer that a fork would copy. Off (the
default), ``debug`` returns at its first check; a caller whose message costs something to build checks
``DEBUG_LOG.enabled`` first. As in ansible-core, the lines are not in the run log (``log_path``).

The messages are ansible-core's where ansible-core's engine makes the same decision (``META: ...``, ``No handler
notifications for HOST, skipping.``), so that what greps its debug log finds ours.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass


def _plain(text: str) -> str:
    return text


@dataclass
class DebugLog:
    enabled: bool = False
    pid: int = 0
    paint: Callable[[str], str] = _plain

    def configure(self, enabled: bool, *, paint: Callable[[str], str] = _plain) -> None:
        """Turn the log on or off for this command; ``paint`` colours a line (ansible-core's dark grey on a
        terminal). Called again (commands run in-process one after the other), it replaces what it set."""
        self.enabled = enabled
        self.pid = os.getpid()
        self.paint = paint

    def debug(self, message: str, host: str | None = None) -> None:
        """One line of the log; ``host`` puts ``[host]`` after the stamp, as ansible-core's ``host=`` does."""
        if not self.enabled:
            return
        stamp = f"{self.pid:6d} {time.time():0.5f}"
        if host is not None:
            stamp += f" [{host}]"
        try:
            sys.stdout.write(self.paint(f"{stamp}: {message}") + "\n")
            sys.stdout.flush()
        except (OSError, ValueError):
            return  # stdout closed or gone: the line is lost, the run goes on


DEBUG_LOG = DebugLog()
