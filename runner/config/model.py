"""The loaded configuration: one typed value per setting, and where each value came from."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.errors import SourcePosition


@dataclass(frozen=True)
class Origin:
    """Where a value came from. ``kind``: "default" | "file" | "env" | "cli"; ``detail``: the file and line
    ("/path/provisioning.cfg:12"), the variable ("PROVISIONING_FORKS"), or the command-line setting name."""

    kind: str
    detail: str = ""
    position: SourcePosition | None = field(default=None, compare=False)  # of the value, when set in a file

    def __str__(self) -> str:
        if self.kind == "file":
            return self.detail
        if self.kind == "env":
            return f"env: {self.detail}"
        return self.kind


DEFAULT = Origin("default")


class Config:
    """Read-only settings, by attribute (``config.forks``) or by name (``config["forks"]``)."""

    def __init__(self, values: dict[str, tuple[Any, Origin]], defaults: dict[str, Any], path: Path | None,
                 warnings: list[str] | None = None, deprecations: list[str] | None = None) -> None:
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_defaults", defaults)
        object.__setattr__(self, "path", path)
        # Things the user should see (an ignored config file); the command prints them.
        object.__setattr__(self, "warnings", list(warnings or []))
        # ansible-core's deprecated settings that are set ([DEPRECATION WARNING] texts); the command prints them.
        object.__setattr__(self, "deprecations", list(deprecations or []))

    path: Path | None
    warnings: list[str]
    deprecations: list[str]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not set up yet (copy, pickle): never look a private name up as a setting
            raise AttributeError(name)
        try:
            return self._values[name][0]
        except KeyError:
            raise AttributeError(f"no setting named {name!r}") from None

    def __getitem__(self, name: str) -> Any:
        return self._values[name][0]

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Config is read-only; pass overrides to load_config instead")

    def origin(self, name: str) -> Origin:
        return self._values[name][1]

    def default(self, name: str) -> Any:
        return self._defaults[name]

    def changed(self) -> dict[str, Any]:
        """Settings whose value differs from the default, wherever it was set."""
        return {name: value for name, (value, _) in self._values.items() if value != self._defaults[name]}

    def items(self) -> Iterator[tuple[str, Any, Origin]]:
        for name, (value, origin) in self._values.items():
            yield name, value, origin

    def __repr__(self) -> str:
        return f"Config(path={self.path!s}, changed={self.changed()!r})"
