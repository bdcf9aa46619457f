"""``provisioning-playbook --step``: asked on the terminal before each task, as Ansible asks:
``Perform task: TASK: NAME (N)o/(y)es/(c)ontinue:``. ``y`` runs it, ``c`` runs it and every later task without
asking again, anything else (Enter included) skips it."""

from __future__ import annotations

import sys
from typing import TextIO

from runner.callbacks.base import TaskInfo
from runner.errors import OptionError


class StepPrompt:
    """The ``step`` callback of the executor; it needs a terminal to ask on."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.asking = True
        if stdin is None and not self.stdin.isatty():
            raise OptionError("--step asks before each task and needs a terminal on standard input")

    def __call__(self, task: TaskInfo) -> bool:
        if not self.asking:
            return True
        kind = "RUNNING HANDLER" if task.is_handler else "TASK"
        self.stdout.write(f"Perform task: {kind}: {task.title} (N)o/(y)es/(c)ontinue: ")
        self.stdout.flush()
        answer = self.stdin.readline()
        if not answer:  # end of input: nobody is left to ask, so nothing more runs unasked
            raise KeyboardInterrupt
        answer = answer.strip().lower()
        if answer in ("c", "continue"):
            self.asking = False
            return True
        return answer in ("y", "yes")
