"""Turning results into what people and CI read: terminal output, JSON and JUnit reports.

``make_callbacks`` builds the set a playbook run reports to: one stdout view, the lines ansible-core's engine prints
beside any view (``-vv``), plus any ``--report`` files.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, TextIO

from runner.callbacks.base import Callback, Callbacks
from runner.callbacks.default_options import DefaultOptions
from runner.callbacks.log_file import LogFile
from runner.errors import OptionError, did_you_mean

# Each view and report is imported where it is chosen, so a run loads only the ones it uses.

STDOUT_CALLBACKS = ("default", "minimal", "oneline", "json", "progress", "yaml")
REPORT_KINDS = ("json", "junit")


def make_callbacks(stdout_callback: str, reports: list[str], verbosity: int, diff: bool, nocolor: bool, *,
                   force_color: bool = False, display_ok_hosts: bool = True, display_skipped_hosts: bool = True,
                   stream: TextIO | None = None, log: LogFile | None = None,
                   first: list[Callback] | None = None, result_format: str = "json",
                   pretty_results: bool | None = None, show_custom_stats: bool = False,
                   stdout_plugin: Callback | None = None, options: DefaultOptions | None = None) -> Callbacks:
    """The stdout view named by ``stdout_callback`` followed by one report per ``json:FILE`` / ``junit:FILE``;
    ``first`` are called before them (what must print before the view's recap). ``log`` records what the view
    prints. ``result_format`` (json or yaml) and ``pretty_results`` are how the default view prints a result,
    ``show_custom_stats`` whether it prints set_stats' statistics after the recap, ``options`` the rest of its
    settings;
    ``yaml`` is the default view with YAML results, as ansible-core treats the retired community.general.yaml.

    ``progress`` is the live view on a terminal and the default view elsewhere (CI logs, pipes); ``default``
    stays Ansible's output even on a terminal. ``stdout_plugin``: a callback plugin that is the stdout view
    instead (a ``stdout_callback`` this runner has no view of).
    """
    look = {"verbosity": verbosity, "nocolor": nocolor, "force_color": force_color, "log": log}
    results = {"result_format": "yaml" if stdout_callback == "yaml" else result_format,
               "pretty_results": pretty_results, "show_custom_stats": show_custom_stats, "options": options}
    view = stdout_plugin or _stdout_view(native_stdout_callback(stdout_callback) or stdout_callback, diff,
                                         display_ok_hosts, display_skipped_hosts, stream, look, results)
    members: list[Callback] = [*(first or []), view]
    if verbosity >= 2:  # the engine's own -vv lines, after the view's for the same event
        from runner.callbacks.engine_lines import EngineLines

        members.append(EngineLines(verbosity=verbosity, nocolor=nocolor, force_color=force_color, stream=stream,
                                   log=log))
    members.extend(_report(spec) for spec in reports)
    return Callbacks(members)


def native_stdout_callback(name: str) -> str | None:
    """This runner's own view that stdout callback ``name`` is (``ansible.builtin.default`` is ``default``), None
    for a name it has no view of (a callback plugin written against Ansible's Python API)."""
    short = name.removeprefix("ansible.builtin.").removeprefix("ansible.legacy.")
    return short if short in STDOUT_CALLBACKS else None


def _stdout_view(name: str, diff: bool, display_ok_hosts: bool, display_skipped_hosts: bool,
                 stream: TextIO | None, look: dict[str, Any], results: dict[str, Any]) -> Callback:
    """``look``: verbosity, nocolor, force_color and log, which every text view takes; ``results``: how the
    default view prints results (result_format, pretty_results, show_custom_stats, options)."""
    out = stream or sys.stdout
    if name == "progress" and out.isatty():
        from runner.callbacks.progress import ProgressDisplay  # rich is imported only when the live view is used

        return ProgressDisplay(verbosity=look["verbosity"], diff=diff, nocolor=look["nocolor"], log=look["log"],
                               results=results)
    if name in ("default", "progress", "yaml"):
        from runner.callbacks.default import DefaultDisplay

        hide = [state for state, shown in (("ok", display_ok_hosts), ("skipped", display_skipped_hosts)) if not shown]
        return DefaultDisplay(diff=diff, stream=stream, hide=hide, **look, **results)
    if name in ("minimal", "oneline"):
        from runner.callbacks.minimal import MinimalDisplay

        return MinimalDisplay(one_line=name == "oneline", stream=stream, **look)
    if name == "json":
        from runner.callbacks.json_report import JsonReport

        return JsonReport(stream=stream, log=look["log"])
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


__all__ = ["STDOUT_CALLBACKS", "Callback", "Callbacks", "DefaultOptions", "make_callbacks", "native_stdout_callback",
           "parse_report"]
