"""``-v``/``--verbose``: how much a command shows. The one place the run's trace (``runner.util.logging``) is
set up: from ``-vvv`` the connections, agents and module files; from ``-vvvv`` frames, workers and timing."""

from __future__ import annotations

import click

from runner.util.logging import configure_trace


def _set_up_trace(context: click.Context, parameter: click.Parameter, verbosity: int) -> int:
    configure_trace(verbosity)
    return verbosity


verbosity_option = click.option(
    "-v", "--verbose", "verbosity", count=True, callback=_set_up_trace,
    help="More output (-vvv: connections, agents and modules; -vvvv: frames, workers and timing).")
