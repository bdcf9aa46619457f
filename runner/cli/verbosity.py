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


verbosity_option = click.option(
    "-v", "--verbose", "verbosity", count=True, callback=_set_up_trace,
    help="More output (-vvv: connections, agents and modules; -vvvv: frames, workers and timing).")
