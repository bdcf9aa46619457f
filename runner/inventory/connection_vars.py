"""Connection variables written in an inventory are checked when it loads: ``ansible_port=notaport`` is refused at
its file:line, not found when a task first connects. A templated value is checked when a task renders it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from runner.connection.settings import ConnectionVariableError, check_connection_variable
from runner.errors import ParseError, SourcePosition


def check_connection_variables(variables: Mapping[Any, Any], where: Callable[[Any], SourcePosition | None]) -> None:
    """Raise ``ParseError`` at ``where(name)`` for the first typed connection variable (port, timeout) whose value
    is not of its type."""
    for name, value in variables.items():
        try:
            check_connection_variable(str(name), value)
        except ConnectionVariableError as exc:
            raise ParseError(str(exc), where(name)) from None
