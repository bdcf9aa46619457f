"""Collecting reference problems of a document, each at the name that does not resolve, all of them at once."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from runner.errors import ParseError, SourcePosition, UserError, did_you_mean


class Problems:
    """The problems found in one document so far."""

    def __init__(self) -> None:
        self.errors: list[UserError] = []

    def add(self, message: str, where: SourcePosition | None, hint: str | None = None) -> None:
        self.errors.append(ParseError(message, where, hint=hint))

    def unknown(self, message: str, name: str, known: Collection[str], where: SourcePosition | None) -> None:
        """A name that is not among ``known``, with a did-you-mean when one is close."""
        self.add(message, where, hint=did_you_mean(name, list(known)) if known else None)

    def duplicates(self, what: str, named: Iterable[tuple[str, SourcePosition | None]]) -> None:
        """Every repeat of a name that must be unique, pointing back at the first."""
        first: dict[str, SourcePosition | None] = {}
        for name, where in named:
            if name not in first:
                first[name] = where
                continue
            earlier = f" (first defined at {first[name]})" if first[name] else ""
            self.add(f"{what} '{name}' is defined twice{earlier}", where)
