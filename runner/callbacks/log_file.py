"""The run log (``log_path``): the lines the terminal shows, without colour, each stamped as Ansible stamps them.

    2026-11-25 09:10:57,249 p=26809 u=root n=provisioning INFO| TASK [say hi] *************************************
    2026-11-25 09:10:57,265 p=26809 u=root n=provisioning INFO| ok: [localhost]

One record per line the views print (a multi-line result is one record, its further lines as printed), warnings
at WARNING and errors at ERROR. A record is one ``write`` to a file opened for appending, so records of the
controller and of anything it forks never interleave inside a line, and nothing is buffered to be lost on exit.
The file is created 0600 (it holds what tasks print); an existing file keeps its mode.

The log of the current command is kept here (``open_run_log`` / ``run_log`` / ``close_run_log``) because errors
that end a command are printed far from the views that hold it (``runner.cli.common.report_errors``).
"""

from __future__ import annotations

import getpass
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

LOGGER_NAME = "provisioning"
_COLOUR_CODES = re.compile(r"\x1b\[[0-9;]*m")


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # a container user with no passwd entry, as Ansible handles it
        return f"uid={os.getuid()}"


class LogFile:
    """An open log file. ``info``/``warning``/``error`` append one record; a write that fails disables the log
    with one warning (through ``warn``), the run goes on."""

    def __init__(self, path: Path, descriptor: int, warn: Callable[[str], None]):
        self.path = path
        self._descriptor: int | None = descriptor
        self._warn = warn
        self._user = _user()
        self._second = -1  # the second whose text is in _second_text: formatted once a second, not per line
        self._second_text = ""

    @classmethod
    def open(cls, path: Path, warn: Callable[[str], None]) -> LogFile:
        """Open ``path`` for appending, creating it 0600; OSError when it cannot be written."""
        descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return cls(path, descriptor, warn)

    def info(self, text: str) -> None:
        self._record("INFO", text)

    def warning(self, text: str) -> None:
        self._record("WARNING", text)

    def error(self, text: str) -> None:
        self._record("ERROR", text)

    def _record(self, level: str, text: str) -> None:
        if self._descriptor is None:
            return
        if "\x1b" in text:
            text = _COLOUR_CODES.sub("", text)
        text = text.strip("\n")  # a banner's blank line, a document's last newline: layout, not records
        if not text.strip():
            return
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second, self._second_text = second, time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(second))
        record = (f"{self._second_text},{int((now - second) * 1000):03d} p={os.getpid()} u={self._user} "
                  f"n={LOGGER_NAME} {level}| {text}\n")
        try:
            os.write(self._descriptor, record.encode("utf-8", "replace"))
        except OSError as exc:
            self.close()
            self._warn(f"writing the log file {self.path} failed ({exc.strerror or exc}); "
                       "the run goes on without it")

    def close(self) -> None:
        if self._descriptor is not None:
            descriptor, self._descriptor = self._descriptor, None
            os.close(descriptor)


_current: LogFile | None = None


def open_run_log(path: Path | None, warn: Callable[[str], None], origin: str = "") -> LogFile | None:
    """Open the command's log at ``path`` (None: no log, no cost). One that cannot be written is warned about
    (``origin`` says where ``log_path`` was set) and the command goes on without it, as Ansible does."""
    global _current
    close_run_log()
    if path is None:
        return None
    try:
        _current = LogFile.open(path, warn)
    except OSError as exc:
        where = f" (log_path, set in {origin})" if origin else ""
        warn(f"cannot write the log file {path}{where}: {exc.strerror or exc}; the run goes on without a log")
        return None
    return _current


def run_log() -> LogFile | None:
    """The current command's log, if it has one."""
    return _current


def print_error(text: str) -> None:
    """An error that ends a command (a user mistake, a stopping signal): on stderr, and in the run log."""
    sys.stderr.write(text + "\n")
    if _current is not None:
        _current.error(text)


def close_run_log() -> None:
    global _current
    if _current is not None:
        _current.close()
        _current = None
