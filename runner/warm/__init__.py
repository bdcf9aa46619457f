"""The warm controller: a later run skips the interpreter's start and the imports.

``provisioning-playbook`` and ``provisioning`` start in ``client.py``, which imports almost nothing. When this
user's warm controller for this install answers (``server.py``, a background process in the keeper's private
directory holding an interpreter that has imported what a run needs), the client hands it the command line, the
working directory, the environment, the umask and its own stdin, stdout and stderr (the descriptors themselves), and
the controller forks a child that runs the command as the client would have (``child.py``); the client forwards
Ctrl-C, SIGTERM and SIGHUP to it and exits with its exit code. Otherwise the client runs the command itself: before
the run starts, it forks the warm controller from itself once it has imported what the last runs needed
(``fork.py``), and tells it as soon as the run knows whether it keeps its connections (``persist`` on) whether it is
wanted, and at the end what the run imported (``control.py``). Where it cannot fork, the run starts the controller
as an interpreter of its own, which imports while the run works. A controller whose sources, dependencies or Python
settings differ from the client's answers "stale" and ends; the client then runs cold and starts a fresh one
(``sources.py``).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing's, without importing typing: the warm client imports this package at every start
if TYPE_CHECKING:
    from socket import socket

# The commands served warm: name -> entry point (the console scripts' own, "module:function").
COMMANDS = {"playbook": "runner.cli.playbook:main", "adhoc": "runner.cli.adhoc:main"}

_wanted: float | None = None
_cold_client = False
_started = False
# The channel to the warm controller forked from this cold client (``fork.py``), None when there is none.
_forked: socket | None = None


def starting_cold(forked: socket | None) -> None:
    """Called by the client before it runs a command itself: the command, once it knows it keeps its
    connections, tells the controller ``forked`` from this client that it is wanted, or else starts one at once,
    so that it imports what a run needs while this run works."""
    global _cold_client, _forked
    _cold_client = True
    _forked = forked


def keep_warm(persist: float | None) -> None:
    """Called by a command once it knows whether it keeps its connections: a warm controller kept ``persist``
    idle seconds is wanted for the next run (None: not wanted), and started now when this is a cold run's
    client."""
    global _wanted, _cold_client
    _wanted = persist if persist and persist > 0 else None
    if _wanted and _cold_client:
        _cold_client = False  # one controller per run, however many times this is called
        if _forked is not None:
            from runner.warm.fork import keep

            keep(_forked, _wanted)
        else:
            from runner.warm.control import start_warm
            from runner.warm.preload import preloadable

            start_warm(_wanted, sys.path[0], preloadable(list(sys.modules)))
        global _started
        _started = True


def warm_wanted() -> float | None:
    return _wanted


def forked_warm() -> socket | None:
    """The channel to the warm controller forked from this cold client, if one was."""
    return _forked


def warm_started() -> bool:
    """Whether this (cold) run started a warm controller."""
    return _started
