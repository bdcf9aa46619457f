"""ansible-core 2.21's ``_task`` variable and register projections (``register:`` as a mapping of names to
expressions), for one task on one host.

``_task`` shows where the task is: ``result`` (the current call's result once its action has run, else the last
item's), ``loop_result`` (a loop's result so far, that call's included) and ``polymorphic_result`` (the loop's
result once it is over, else ``result``). What is not there yet is undefined, as ansible-core makes it.

A projection's name becomes a variable once the task has recorded a result (a loop's first item, skipped or not):
the conditions of that call and every later item read it, as an expression evaluated when read. When the task is
over each is evaluated once more and registered.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from runner.templating import Templar
from runner.templating.errors import TemplateError

TASK_VARIABLE = "_task"


def mentions_task(texts: Iterator[Any]) -> bool:
    """Whether any of these (a task's conditions and projections) reads ``_task``."""
    return any(isinstance(text, str) and TASK_VARIABLE in text for text in texts)


class TaskProgress:
    """What ``_task`` reads: a loop's finished items and the result of the call running now.

    ``view`` turns a result into what a variable holds of it (the registered form); ``summary`` makes a loop's
    result of its items' (both given by the worker, which owns those forms)."""

    def __init__(
        self,
        projections: Mapping[str, Any] | None,
        view: Callable[[Mapping[str, Any]], Any],
        summary: Callable[[list[dict[str, Any]]], dict[str, Any]],
    ):
        self.projections = dict(projections or {})
        self.view = view
        self.summary = summary
        self.items: list[dict[str, Any]] | None = None  # a loop's finished items (the loop's own list)
        self.current: dict[str, Any] | None = None  # the running call's result, once its action has run
        self.final: dict[str, Any] | None = None  # the task's result, once it is over
        self.last_item_vars: Mapping[str, Any] | None = None  # the variables of a loop's last item
        # The variables the task's templates see: ``_task``, then the projections once a result is recorded
        # (this dict is a layer of the task's variables, so what is added later is seen by every template).
        self.layer: dict[str, Any] = {TASK_VARIABLE: CurrentTask(self)}

    def start_loop(self, items: list[dict[str, Any]]) -> None:
        self.items = items

    def record(self, result: dict[str, Any]) -> None:
        """A call's result (each attempt's), before its conditions are read."""
        self.current = result
        self._enable()

    def item_done(self, item_vars: Mapping[str, Any]) -> None:
        """A loop's item is over (run or skipped) and in ``items``."""
        self.current = None
        self.last_item_vars = item_vars
        self._enable()

    def _enable(self) -> None:
        for name, expression in self.projections.items():
            self.layer.setdefault(name, _as_template(expression))

    def registered(
        self, result: dict[str, Any], variables: Mapping[str, Any], search_paths: Any = None
    ) -> tuple[dict[str, Any], list[str]]:
        """Each projection's value once the task is over (``result`` its result), with the variables of the task
        (a loop's last item's); and the names whose expression failed, with why."""
        self.final = result
        self.current = None
        self._enable()
        scope = ChainMap(self.layer, self.last_item_vars or variables)  # type: ignore[arg-type]
        templar = Templar(scope, search_paths=search_paths)
        values: dict[str, Any] = {}
        errors: list[str] = []
        for name, expression in self.projections.items():
            try:
                values[name] = templar.template(_as_template(expression))
            except TemplateError as error:
                errors.append(f"{name}: {error.message}")
        return values, errors


class CurrentTask(Mapping[str, Any]):
    """The ``_task`` variable: its keys are read when a template reads them, so they are always current."""

    KEYS = ("result", "loop_result", "polymorphic_result")

    def __init__(self, progress: TaskProgress):
        self._progress = progress

    def __getitem__(self, key: str) -> Any:
        progress = self._progress
        if key == "result":
            latest = (
                progress.current
                if progress.current is not None
                else (progress.items[-1] if progress.items else progress.final)
            )
            if latest is None:
                raise KeyError(key)  # no result recorded yet: undefined
            return progress.view(latest)
        if key == "loop_result":
            if progress.items is None:
                raise KeyError(key)  # not a loop
            if progress.final is not None:
                return progress.view(progress.final)
            done = progress.items + ([progress.current] if progress.current is not None else [])
            return progress.view(progress.summary(done))
        if key == "polymorphic_result":
            if progress.final is not None:
                return progress.view(progress.final)
            return self["result"]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self.KEYS)

    def __len__(self) -> int:
        return len(self.KEYS)


def _as_template(expression: Any) -> Any:
    """A projection's expression as a template of its own value; a value that is not text is that value."""
    return "{{ " + expression + " }}" if isinstance(expression, str) else expression
