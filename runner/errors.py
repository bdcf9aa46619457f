"""Errors a user can cause, each able to say where (file:line:col) and what was expected.

Anything raised as a ``UserError`` is printed as one clear message and turned into an exit code by the CLI;
anything else is a bug in provisioning and is reported as an internal error.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path


class ExitCode(IntEnum):
    """Exit codes as Ansible's, so CI scripts written for Ansible keep working."""

    OK = 0
    ERROR = 1
    HOST_FAILED = 2
    UNREACHABLE = 4  # also used for parse errors, as Ansible does
    BAD_OPTIONS = 5
    PLAY_BREAK = 8
    INTERRUPTED = 99
    INTERNAL = 250


@dataclass(frozen=True)
class SourcePosition:
    """A place in a file; line and column are 1-based, as editors show them."""

    path: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        parts = [self.path]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    @classmethod
    def parse(cls, text: str) -> SourcePosition | None:
        """Read back ``path:line:col`` (as the plan stores positions)."""
        if not text:
            return None
        parts = text.rsplit(":", 2)
        try:
            return cls(parts[0], int(parts[1]), int(parts[2]))
        except (IndexError, ValueError):
            return cls(text)

    def origin(self) -> str:
        """ansible-core 2.19's ``Origin:`` block under an error: the position, then the two lines before it and
        its own, numbered, with ``^ column N`` under the column (only the position when the file cannot be read)."""
        text = f"Origin: {self}"
        if self.line is None or self.line < 1:
            return text
        try:
            with open(self.path, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().split("\n")[:self.line]
        except OSError:
            return text
        if len(lines) < self.line:
            return text
        width = len(str(self.line))
        first = max(0, self.line - 3)
        annotated = []
        for number, line in enumerate(lines[first:], start=first + 1):
            line = line.replace("\t", " ")
            annotated.append(f"{str(number).rjust(width)}{' ' if line else ''}{line}")
        if self.column is not None and self.column >= 1:
            annotated.append(f"{' ' * width} {' ' * (self.column - 1)}^ column {self.column}")
        return text + "\n\n" + "\n".join(annotated)

    def excerpt(self) -> str:
        """The offending line with a caret under the column, or '' when the file cannot be read."""
        if self.line is None:
            return ""
        try:
            lines = Path(self.path).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return ""
        if not 0 < self.line <= len(lines):
            return ""
        text = lines[self.line - 1]
        caret = ""
        if self.column is not None:
            caret = "\n    " + " " * (self.column - 1) + "^"
        return f"    {text}{caret}"


# A failed result's ``exception`` when the failure is the user's input, not a fault in code: Ansible's words for a
# result that has the key (playbooks test ``result.exception is defined``) but no traceback worth showing.
NO_TRACEBACK = "(traceback unavailable)"

# The result key (the run's own, never registered) that says what a failure came from, for ansible-core 2.19's
# "Task failed: ..." line: "task" (the task itself: a template, a keyword), "action" (a controller-side action,
# or failed_when deciding it), "include" (what an include names could not be read; reported already), "retries"
# (an ``until`` that never held, on a result that had not failed: ansible-core 2.21 gives such a failure no
# ``exception`` and no ``[ERROR]:`` line), "error" (an error of the playbook that failed the host, ansible-core
# 2.21's role an include_role names that is not there: its ``[ERROR]:`` line is the message as it is, its Origin
# where FAILED_AT says); absent, the module that ran on the host.
FAILED_IN = "_failed_in"
RETRIES_RAN_OUT = "retries"
PLAYBOOK_ERROR = "error"

# The result key (the run's own) holding the ``file:line:col`` an ``[ERROR]:`` block's Origin shows when it is not
# the task's own (the value in error).
FAILED_AT = "_failed_at"

# The result key (the run's own) holding what that line says failed when it is not the result's ``msg``: a
# ``failed_when`` or ``changed_when`` that decided the failure, in ansible-core 2.21's words.
FAILED_WHY = "_failed_why"


# The result key (the run's own) holding the innermost cause of a failure that says how to avoid it (ansible-core's
# help text), which ansible-core's ``[ERROR]:`` block shows last, after ``<<< caused by >>>``.
FAILED_CAUSE = "_failed_cause"


def explained_cause(error: BaseException) -> str | None:
    """The first cause of ``error`` (its ``__cause__`` chain) with a ``help_text``, as ansible-core words it:
    the cause's message, then the help text; None when no cause has one."""
    current, seen = error.__cause__, set()
    while current is not None and id(current) not in seen:
        help_text = getattr(current, "help_text", None)
        if isinstance(help_text, str) and help_text:
            return f"{current} {help_text}"
        seen.add(id(current))
        current = current.__cause__
    return None


class UserError(Exception):
    """A mistake in the user's input: bad YAML, an unknown keyword, a bad option or value."""

    exit_code: ExitCode = ExitCode.ERROR

    def __init__(self, message: str, position: SourcePosition | None = None, *, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.position = position
        self.hint = hint

    def render(self, *, with_excerpt: bool = True) -> str:
        where = f"{self.position}: " if self.position else ""
        text = f"ERROR: {where}{self.message}"
        if self.hint:
            text += f" ({self.hint})"
        if with_excerpt and self.position:
            excerpt = self.position.excerpt()
            if excerpt:
                text += "\n" + excerpt
        return text

    def __str__(self) -> str:
        return self.render(with_excerpt=False)


class ParseError(UserError):
    """A file that cannot be read as what it should be (YAML, INI, inventory, playbook)."""

    exit_code = ExitCode.UNREACHABLE


class NotFoundError(ParseError):
    """What a task names (a role, a tasks file) does not exist. At compile time an error like any other; for an
    include at run time it fails the hosts that include it, as ansible-core's missing roles and files do, where a
    file that exists but cannot be read stops the run."""


class CensoredParseError(ParseError):
    """A parse error about text that may hold a secret (a ``no_log`` task's): the file's line is not shown."""

    def render(self, *, with_excerpt: bool = True) -> str:
        return super().render(with_excerpt=False)


class OptionError(UserError):
    """A bad command-line option or configuration value."""

    exit_code = ExitCode.BAD_OPTIONS


class ConnectionFailure(Exception):
    """A host cannot be reached or its agent cannot be started: the host is UNREACHABLE, not failed."""


def did_you_mean(word: str, candidates: Collection[str]) -> str | None:
    """A hint such as "did you mean 'become'?" for a misspelt keyword, or None when nothing is close."""
    close = difflib.get_close_matches(word, sorted(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None
