"""Where the text views write: results on stdout, warnings on stderr, banners as wide as Ansible's."""

from __future__ import annotations

import os
import sys
import textwrap
from typing import Literal, TextIO

from runner.callbacks.colors import paint, use_color
from runner.callbacks.log_file import LogFile

NON_UTF8_REPLACED = 'Non UTF-8 encoded data replaced with "?" while displaying text to stdout/stderr.'
MIN_COLUMNS = 79  # Ansible's banners fill at least 80 columns: the text, a space, and stars up to column 79


def terminal_columns(stream: TextIO) -> int:
    """Ansible's width: one less than the terminal's, never under 79; 79 when the stream is not a terminal."""
    width = 0
    try:
        if stream.isatty():
            width = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        width = 0
    return max(MIN_COLUMNS, width - 1)


DEPRECATIONS_HINT = "Deprecation warnings can be disabled by setting `deprecation_warnings=False` in ansible.cfg."


class Terminal:
    """Writes lines in Ansible's colours; stdout and stderr are looked up when written to unless given.

    Looking them up late lets a live view (rich) redirect them while it draws. With a ``log`` (``log_path``),
    every line and warning is also recorded there, without colour.
    """

    def __init__(self, stream: TextIO | None = None, err: TextIO | None = None, *, nocolor: bool = False,
                 force_color: bool = False, columns: int | None = None, log: LogFile | None = None):
        self._stream = stream
        self._err = err
        self.nocolor = nocolor
        self.force_color = force_color
        self.color = use_color(self.stream, nocolor, force_color)
        self.log = log
        self.columns = columns or terminal_columns(self.stream)
        self._warned: set[str] = set()

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stdout

    @property
    def err(self) -> TextIO:
        return self._err or sys.stderr

    def line(self, text: str = "", state: str | None = None, *, stderr: bool = False) -> None:
        """``text`` in ``state``'s colour on stdout, or on stderr when told (``display_failed_stderr``)."""
        text = self._displayable(text)
        stream = self.err if stderr else self.stream
        color = use_color(self.err, self.nocolor, self.force_color) if stderr else self.color
        stream.write(paint(text, state, color) + "\n")
        stream.flush()
        if self.log is not None:
            self.log.info(text)

    def banner(self, text: str) -> None:
        """A blank line, then ``TEXT ****`` with stars up to the width (at least three)."""
        text = text.strip()
        stars = "*" * max(3, self.columns - len(text))
        self.line(f"\n{text} {stars}")

    def _displayable(self, text: str) -> str:
        """``text`` with what is not Unicode (lone surrogates, from bytes that were not UTF-8) shown as "?", said
        once in ansible-core's words, rather than failing the stream's encoding."""
        if text.isascii():
            return text
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            self.warning(NON_UTF8_REPLACED, wrap=False)
            return text.encode("utf-8", "replace").decode("utf-8")
        return text

    def deprecation(self, text: str) -> None:
        """``[DEPRECATION WARNING]: ...`` on stderr, each distinct one once per run; the run log has it at INFO,
        as Ansible logs it. ansible-core says first, once, how to turn them off."""
        self.warning(DEPRECATIONS_HINT)
        self._once(f"[DEPRECATION WARNING]: {text}", "deprecated", "info")

    def warning(self, message: str, *, wrap: bool = True) -> None:
        """``[WARNING]: ...`` on stderr, wrapped to the width unless told not to, each distinct message once per
        run."""
        first, newline, rest = f"[WARNING]: {message}".partition("\n")
        if wrap:  # the first line only: what follows (an ``Origin:`` block quoting the source) keeps its lines
            first = "\n".join(textwrap.wrap(first, self.columns)) or "[WARNING]:"
        text = first + newline + rest
        self._once(text, "warning", "warning")

    def _once(self, text: str, colour: str, level: Literal["info", "warning"]) -> None:
        """``text`` on stderr in ``colour`` unless this run has shown it already, and in the run log at ``level``."""
        if text in self._warned:
            return
        self._warned.add(text)
        self.err.write(paint(text, colour, use_color(self.err, self.nocolor, self.force_color)) + "\n")
        self.err.flush()
        if self.log is not None:
            (self.log.info if level == "info" else self.log.warning)(text)
