"""The run's trace: what ``-vvv`` and ``-vvvv`` show of connections, agents, frames, workers and task timing.

Every package logs to its own logger (``logging.getLogger(__name__)``, all under ``runner``); nothing is configured
when a module is imported, so the library stays silent when embedded. The command line calls ``configure_trace``
once with the chosen verbosity:

- ``-vvv`` (``VERBOSE``, logging's INFO): what Ansible shows at ``-vvv`` where it is cheap to say
  (``<127.0.0.20> ESTABLISH SSH CONNECTION FOR USER: root``, the module file being used);
- ``-vvvv`` (``DEBUG``): how each connection was decided and how long its handshake took, agent starts, every
  frame's kind, size and round trip, the worker pool's processes and their hosts, and each host-task's timing.
  These lines start with the pid of the process that wrote them (the controller or a worker).

A line that is one of Ansible's own ``-vvv`` lines (``ESTABLISH ... CONNECTION``, ``EXEC``, ``Using module file``;
logged with ``extra=DISPLAYED``) goes where Ansible's display puts it, stdout, in Ansible's form (no pid), so that
``-vvvv | grep`` finds it as it finds Ansible's. The lines Ansible has no counterpart for (frames, workers, timing,
the plan cache) go to stderr: stdout keeps only the kinds of lines Ansible prints there. Each record is one
``write`` to its descriptor: a forked worker inherits the handler and writes its own lines, so a host's lines (a
host is held by one worker) come out in the order they happened, and never interleave inside a line with another
process's. The command line passes what masks a line (the vault
masking, ``runner.secrets.censor``) and what else records it (the run log, ``log_path``, as Ansible's verbose
lines are): this module sits below both and imports neither.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Final

TRACE_ROOT: Final = "runner"
VERBOSE: Final = logging.INFO  # -vvv
DEBUG: Final = logging.DEBUG  # -vvvv
# Levels above both: with the trace off, the loggers' level check fails at once and nothing is formatted.
_OFF = logging.WARNING
DISPLAYED: Final = {"ansible_display": True}
"""``extra=`` of a trace call whose line Ansible's display prints too: it goes to the display's stream (stdout)."""


def trace_level(verbosity: int) -> int:
    """The ``runner`` loggers' level for a ``-v`` count."""
    if verbosity >= 4:
        return DEBUG
    if verbosity == 3:
        return VERBOSE
    return _OFF


def _unchanged(text: str) -> str:
    return text


def is_displayed(record: logging.LogRecord) -> bool:
    """Whether ``record`` is one of Ansible's display lines (logged with ``extra=DISPLAYED``)."""
    return bool(getattr(record, "ansible_display", False))


class TraceHandler(logging.Handler):
    """Writes each record as one line to a file descriptor, passed through ``mask`` first, then hands the line
    to ``also`` (the run log): Ansible's display lines to ``display_descriptor`` (stdout) as Ansible prints them,
    the others to ``descriptor`` (stderr), after the writer's pid when ``with_pid``. A record below
    ``shown_from`` (a level the run log asks for, not the display) goes to ``also`` only."""

    def __init__(self, descriptor: int = 2, *, display_descriptor: int = 1, with_pid: bool = False,
                 mask: Callable[[str], str] = _unchanged, also: Callable[[str], None] | None = None,
                 shown_from: int = logging.NOTSET):
        super().__init__()
        self.descriptor = descriptor
        self.display_descriptor = display_descriptor
        self.with_pid = with_pid
        self.mask = mask
        self.also = also
        self.shown_from = shown_from

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = self.mask(record.getMessage())
        except Exception:  # a bad format string in a trace call must not end the run
            text = f"{record.msg!r} (unformattable trace arguments)"
        displayed = is_displayed(record)
        if self.with_pid and not displayed:
            text = f"[{record.process}] {text}"
        if record.levelno < self.shown_from:
            if self.also is not None:
                self.also(text)
            return
        data = (text + "\n").encode("utf-8", "replace")
        descriptor = self.display_descriptor if displayed else self.descriptor
        try:
            while data:
                written = os.write(descriptor, data)
                data = data[written:]
        except OSError:
            return  # the stream closed or gone: the trace is lost, the run goes on
        if self.also is not None:
            self.also(text)


def configure_trace(verbosity: int, descriptor: int = 2, *, display_descriptor: int = 1,
                    mask: Callable[[str], str] = _unchanged, also: Callable[[str], None] | None = None,
                    also_verbosity: int = 0) -> None:
    """Show the trace for ``verbosity`` on ``descriptor`` (Ansible's display lines on ``display_descriptor``),
    each line through ``mask`` and then to ``also``; below ``-vvv`` there is no handler and no cost.
    ``also_verbosity`` (the run log's ``log_verbosity``) records more than is shown, in ``also`` only. Called
    again (commands run in-process one after the other), it replaces what it set before."""
    root = logging.getLogger(TRACE_ROOT)
    for handler in [h for h in root.handlers if isinstance(h, TraceHandler)]:
        root.removeHandler(handler)
    shown = trace_level(verbosity)
    level = min(shown, trace_level(also_verbosity)) if also is not None else shown
    root.setLevel(level)
    if level < _OFF:
        root.addHandler(TraceHandler(descriptor, display_descriptor=display_descriptor, with_pid=level <= DEBUG,
                                     mask=mask, also=also, shown_from=shown))
        root.propagate = False  # the trace is shown once, here, even if an embedding program logs at the root
    else:
        root.propagate = True


def milliseconds(seconds: float) -> str:
    """A duration as the trace shows it: ``12.3 ms``."""
    return f"{seconds * 1000:.1f} ms"


def size(count: int) -> str:
    """A byte count as the trace shows it: ``512 B``, ``3.1 KiB``, ``2.0 MiB``."""
    if count < 1024:
        return f"{count} B"
    if count < 1 << 20:
        return f"{count / 1024:.1f} KiB"
    return f"{count / (1 << 20):.1f} MiB"
