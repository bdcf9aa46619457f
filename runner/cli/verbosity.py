"""``-v``/``--verbose``: how much a command shows. The one place the run's trace (``runner.util.logging``) is
set up: from ``-vvv`` the connections, agents and module files; from ``-vvvv`` frames, workers and timing."""

from __future__ import annotations

import click

from runner.callbacks.log_file import run_log
from runner.secrets.censor import censor_text
from runner.util.logging import configure_trace


def _into_run_log(text: str) -> None:
    """A trace line into the command's log (``log_path``), when it has one: looked up per line, since the log
    opens after the options are read."""
    log = run_log()
    if log is not None:
        log.info(text)


def _set_up_trace(context: click.Context, parameter: click.Parameter, verbosity: int) -> int:
    configure_trace(verbosity, mask=censor_text, also=_into_run_log)
    return verbosity


def trace_into_run_log(verbosity: int, log_verbosity: int) -> None:
    """Once the run log is open: its ``log_verbosity`` adds the trace lines of that many ``-v`` to the log
    alone, as Ansible logs them beyond what it displays."""
    if log_verbosity > verbosity:
        configure_trace(verbosity, mask=censor_text, also=_into_run_log, also_verbosity=log_verbosity)


verbosity_option = click.option(
    "-v", "--verbose", "verbosity", count=True, callback=_set_up_trace,
    help="More output (-vvv: connections, agents and modules; -vvvv: frames, workers and timing).")
