"""Backslashes in the string constants of a ``{{ }}`` expression are taken literally, as Ansible takes them.

A task's template has been through YAML already, which processed its backslash escapes; Jinja2 would process
them a second time, so ``regex_search("(/.*sudoers).*:", "\\1")`` written in a single-quoted YAML string would
pass ``'\\x01'``, not the back-reference ``\\1`` its author meant. ansible-core escapes every backslash of an
expression's string constants before Jinja2 reads them, for the templates of a playbook's values; template files
and conditionals keep Jinja2's reading (ansible-core: ``escape_backslashes=False`` for them), and so do the
string constants of ``{% %}`` statements.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from jinja2.lexer import TOKEN_STRING, TOKEN_VARIABLE_BEGIN, TOKEN_VARIABLE_END, Lexer

_ESCAPING: ContextVar[bool] = ContextVar("escape_backslashes", default=False)


@contextmanager
def escaping_backslashes(enabled: bool = True) -> Iterator[None]:
    """Within this block, templates compiled read their expressions' backslashes literally (``enabled``)."""
    token = _ESCAPING.set(enabled)
    try:
        yield
    finally:
        _ESCAPING.reset(token)


class BackslashEscapingLexer(Lexer):
    """Jinja2's lexer, doubling the backslashes of string constants inside ``{{ }}`` when escaping is on."""

    def tokeniter(self, *args: Any, **kwargs: Any) -> Iterator[tuple[int, str, str]]:
        tokens = super().tokeniter(*args, **kwargs)
        if not _ESCAPING.get():
            yield from tokens
            return
        in_expression = False
        for lineno, kind, value in tokens:
            if kind == TOKEN_VARIABLE_BEGIN:
                in_expression = True
            elif kind == TOKEN_VARIABLE_END:
                in_expression = False
            elif in_expression and kind == TOKEN_STRING:
                value = value.replace("\\", "\\\\")
            yield lineno, kind, value
