"""Reading playbook and task files into models.

``import_playbook`` entries are kept as written, with their position: resolving them (and every other path) is
the compiler's job. Whether a task's key names a module is the caller's answer (``is_module``), so the loader
does not depend on the module library.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from runner.errors import SourcePosition, UserError
from runner.loader.yaml import load_yaml_file
from runner.models.block import HandlerEntry, HandlerList, TaskEntry, TaskList
from runner.models.play import Playbook, PlayList
from runner.models.validation import validate

IsModule = Callable[[str], bool]


def load_playbook(path: str | Path, is_module: IsModule,
                  before_validation: Callable[[Any], None] | None = None) -> Playbook:
    """The plays and ``import_playbook`` entries of a playbook file; every problem in it raised at once.

    ``before_validation`` sees the file's data first: what it makes known (the modules of the plays' roles)
    counts when the tasks' module names are checked."""
    data = load_yaml_file(path)
    if before_validation is not None:
        before_validation(data)
    entries = validate(PlayList, data, is_module=is_module, where=SourcePosition(str(path)))
    return Playbook(path=str(path), entries=entries)


def load_task_file(path: str | Path, is_module: IsModule, errors: list[UserError] | None = None) -> list[TaskEntry]:
    """The tasks and blocks of a task file (``include_tasks``, ``import_tasks``, a role's tasks/).

    With ``errors``, problems are added to that list (and [] returned) instead of raised.
    """
    return _load_list(TaskList, path, is_module, errors)


def load_handler_file(path: str | Path, is_module: IsModule,
                      errors: list[UserError] | None = None) -> list[HandlerEntry]:
    """The handlers of a role's handlers/ file."""
    return _load_list(HandlerList, path, is_module, errors)


def _load_list(target: Any, path: str | Path, is_module: IsModule, errors: list[UserError] | None) -> list[Any]:
    try:
        data = load_yaml_file(path)
    except UserError as exc:
        if errors is None:
            raise
        errors.append(exc)
        return []
    return validate(target, data, is_module=is_module, errors=errors, where=SourcePosition(str(path))) or []
