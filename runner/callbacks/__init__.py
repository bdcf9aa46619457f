"""Turning results into what people and CI read: terminal output, JSON and JUnit reports.

``make_callbacks`` builds the set a playbook run reports to: one stdout view plus any ``--report`` files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from runner.callbacks.base import Callback, Callbacks
from runner.errors import OptionError, did_you_mean

# Each view and report is imported where it is chosen, so a run loads only the ones it uses.

STDOUT_CALLBACKS = ("default", "minimal", "oneline", "json", "progress")
REPORT_KINDS = ("json", "junit")


def make_callbacks(stdout_callback: str, reports: list[str], verbosity: int, diff: bool, nocolor: bool, *,
                   display_ok_hosts: bool = True, display_skipped_hosts: bool = True,
                   stream: TextIO | None = None) -> Callbacks:
    """The stdout view named by ``stdout_callback`` followed by one report per ``json:FILE`` / ``junit:FILE``.

    ``progress`` is the live view on a terminal and the default view elsewhere (CI logs, pipes); ``default``
    stays Ansible's output even on a terminal.
    """
    members: list[Callback] = [_stdout_view(stdout_callback, verbosity, diff, nocolor, display_ok_hosts,
                                            display_skipped_hosts, stream)]
    members.extend(_report(spec) for spec in reports)
    return Callbacks(members)


def _stdout_view(name: str, verbosity: int, diff: bool, nocolor: bool, display_ok_hosts: bool,
                 display_skipped_hosts: bool, stream: TextIO | None) -> Callback:
    out = stream or sys.stdout
    if name == "progress" and out.isatty():
        from runner.callbacks.progress import ProgressDisplay  # rich is imported only when the live view is used

        return ProgressDisplay(verbosity=verbosity, diff=diff, nocolor=nocolor)
    if name in ("default", "progress"):
        from runner.callbacks.default import DefaultDisplay

        hide = [state for state, shown in (("ok", display_ok_hosts), ("skipped", display_skipped_hosts)) if not shown]
        return DefaultDisplay(verbosity=verbosity, diff=diff, nocolor=nocolor, stream=stream, hide=hide)
    if name in ("minimal", "oneline"):
        from runner.callbacks.minimal import MinimalDisplay

        return MinimalDisplay(one_line=name == "oneline", verbosity=verbosity, nocolor=nocolor, stream=stream)
    if name == "json":
        from runner.callbacks.json_report import JsonReport

        return JsonReport(stream=stream)
    raise OptionError(f"unknown stdout callback '{name}': expected one of {', '.join(STDOUT_CALLBACKS)}",
                      hint=did_you_mean(name, STDOUT_CALLBACKS))


def parse_report(spec: str) -> tuple[str, Path]:
    """``junit:out/results.xml`` → ("junit", Path("out/results.xml")); anything else is an OptionError."""
    kind, separator, file = spec.partition(":")
    kind = kind.strip().lower()
    if not separator or not file.strip():
        raise OptionError(f"--report {spec!r}: expected KIND:FILE with KIND one of {', '.join(REPORT_KINDS)}, "
                          "for example junit:results.xml")
    if kind not in REPORT_KINDS:
        raise OptionError(f"--report {spec!r}: unknown report kind '{kind}', expected one of "
                          f"{', '.join(REPORT_KINDS)}", hint=did_you_mean(kind, REPORT_KINDS))
    path = Path(file.strip()).expanduser()
    if path.is_dir():
        raise OptionError(f"--report {spec!r}: {path} is a directory, expected a file name")
    return kind, path


def _report(spec: str) -> Callback:
    kind, path = parse_report(spec)
    if kind == "json":
        from runner.callbacks.json_report import JsonReport

        return JsonReport(path)
    from runner.callbacks.junit_report import JunitReport

    return JunitReport(path)


__all__ = ["STDOUT_CALLBACKS", "Callback", "Callbacks", "make_callbacks", "parse_report"]
