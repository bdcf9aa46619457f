"""Stopping signals at their defaults for every run the suite starts.

Tests interrupt runs on purpose (Ctrl-C, SIGTERM, SIGHUP) and check how they end. A suite started in the
background of a shell without job control, or under ``nohup``, inherits SIGINT (and SIGQUIT, or SIGHUP) ignored,
and an ignored signal stays ignored across ``fork`` and ``exec``: every run it starts would then ignore the very
signal a test sends, as a run started that way should. Restored here once, for the suite and what it starts.
"""

from __future__ import annotations

import signal

import pytest

# The handler each signal gets when the suite inherited it ignored: pytest's own for SIGINT (KeyboardInterrupt),
# the default action for the others.
_RESTORED = {signal.SIGINT: signal.default_int_handler, signal.SIGHUP: signal.SIG_DFL, signal.SIGQUIT: signal.SIG_DFL}


def pytest_configure(config: pytest.Config) -> None:
    for signum, handler in _RESTORED.items():
        if signal.getsignal(signum) is signal.SIG_IGN:
            signal.signal(signum, handler)
