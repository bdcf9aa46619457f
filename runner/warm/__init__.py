"""The warm controller: a later run skips the interpreter's start and the imports.

``provisioning-playbook`` and ``provisioning`` start in ``client.py``, which imports almost nothing. When this
user's warm controller for this install answers (``server.py``, a background process in the keeper's private
directory holding an interpreter that has imported what a run needs), the client hands it the command line, the
working directory, the environment, the umask and its own stdin, stdout and stderr (the descriptors themselves),
and the controller forks a child that runs the command as the client would have (``child.py``); the client
forwards Ctrl-C, SIGTERM and SIGHUP to it and exits with its exit code. Otherwise the client runs the command
itself, and when that run kept its connections (``persist`` on) starts the warm controller for the next one
(``control.py``). A controller whose sources, dependencies or Python settings differ from the client's answers
"stale" and ends; the client then runs cold and starts a fresh one (``sources.py``).
"""

from __future__ import annotations

# The commands served warm: name -> entry point (the console scripts' own, "module:function").
COMMANDS = {"playbook": "runner.cli.playbook:main", "adhoc": "runner.cli.adhoc:main"}

_wanted: float | None = None


def keep_warm(persist: float | None) -> None:
    """Called by a command that keeps its connections: a warm controller kept ``persist`` idle seconds is wanted
    for the next run (None: not wanted)."""
    global _wanted
    _wanted = persist if persist and persist > 0 else None


def warm_wanted() -> float | None:
    return _wanted
