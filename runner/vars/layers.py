"""One host's variables as a stack of layers, looked up in precedence order and never copied.

The executor keeps a per-host base (inventory, facts, registered results, extra vars) and stacks the play's,
role's, block's and task's layers on it for each task::

    base = VariableLayers(extra_vars=extra, magic=magic).with_layer("inventory", inventory.host_vars(host)) \\
        .with_layer("facts", FactsView(facts[host])).with_layer("set_fact", registered[host])
    task_vars = base.with_layer("play_vars", play.vars).with_layer("task_vars", task.vars).as_mapping()

``with_layer`` returns a new view holding a reference to ``values`` (mutating that mapping later, as
``register`` does, is seen by every view); where a layer goes depends on its level, not on when it was added.
Within one level, the layer added last wins (an inner block's vars over an outer block's).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from runner.templating import ANSIBLE_MANAGED, VariableScope
from runner.util.hash_merge import merge_values
from runner.vars.precedence import Precedence, precedence_of

_EMPTY: Mapping[str, Any] = {}
DEFAULTS: Mapping[str, Any] = {"ansible_managed": ANSIBLE_MANAGED}


class VariableView(VariableScope):
    """The merged, read-only mapping a template reads: the first source holding a key wins.

    Values are raw (not yet rendered); the templar renders them when a template reads them.
    """

    __slots__ = ("_merge", "_sources")

    def __init__(self, sources: tuple[Mapping[str, Any], ...], merge: bool = False):
        self._sources = sources
        self._merge = merge  # hash_behaviour = merge: a mapping merges with the same name's below it

    def __getitem__(self, key: str) -> Any:
        for index, source in enumerate(self._sources):
            if key in source:
                value = source[key]
                if self._merge and isinstance(value, Mapping):
                    return self._merged(key, index)
                return value
        raise KeyError(key)

    def _merged(self, key: str, top: int) -> Any:
        """The value of ``key`` from every source from ``top`` down, merged from the lowest up."""
        merged: Any = None
        for source in reversed(self._sources[top:]):
            if key in source:
                merged = merge_values(merged, source[key]) if merged is not None else source[key]
        return merged

    def __contains__(self, key: object) -> bool:
        return any(key in source for source in self._sources)

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for source in self._sources:
            for key in source:
                if key not in seen:
                    seen.add(key)
                    yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"VariableView({len(self._sources)} sources)"


class VariableLayers:
    """Per-host variable layers; cheap to extend (a handful of references per ``with_layer``)."""

    __slots__ = ("_defaults", "_layers", "_magic", "_merge")

    def __init__(self, *, extra_vars: Mapping[str, Any] = _EMPTY, magic: Mapping[str, Any] = _EMPTY,
                 defaults: Mapping[str, Any] = DEFAULTS,
                 layers: tuple[tuple[Precedence, Mapping[str, Any]], ...] = (), merge: bool = False):
        self._magic = magic
        self._defaults = defaults
        self._merge = merge  # hash_behaviour = merge
        self._layers = layers  # highest precedence first; within a level, the newest first
        if extra_vars:
            self._layers = self._inserted(Precedence.EXTRA_VARS, extra_vars)

    def _inserted(self, level: Precedence, values: Mapping[str, Any]) -> tuple[tuple[Precedence, Mapping], ...]:
        index = next((i for i, (existing, _) in enumerate(self._layers) if existing <= level), len(self._layers))
        return (*self._layers[:index], (level, values), *self._layers[index:])

    def _copy(self, layers: tuple[tuple[Precedence, Mapping[str, Any]], ...],
              magic: Mapping[str, Any] | None = None) -> VariableLayers:
        child = VariableLayers.__new__(VariableLayers)
        child._magic = self._magic if magic is None else magic
        child._defaults = self._defaults
        child._layers = layers
        child._merge = self._merge
        return child

    def with_layer(self, level: str | int | Precedence, values: Mapping[str, Any]) -> VariableLayers:
        """A child view with ``values`` at ``level`` (a ``Precedence`` or its name, such as "task_vars")."""
        return self._copy(self._inserted(precedence_of(level), values))

    def with_defaults(self, values: Mapping[str, Any]) -> VariableLayers:
        """A child view with ``values`` below every level (where ``ansible_managed`` is): what a task sees when
        nothing sets those names, such as the connection it runs over."""
        child = self._copy(self._layers)
        child._defaults = {**self._defaults, **values}
        return child

    def with_magic(self, magic: Mapping[str, Any]) -> VariableLayers:
        """A child view with other magic variables (for instance ``MagicVariables.for_role(...)``)."""
        return self._copy(self._layers, magic)

    @property
    def magic(self) -> Mapping[str, Any]:
        return self._magic

    def as_mapping(self) -> VariableView:
        """What the templar reads: magic variables, then the layers from the highest level, then defaults."""
        return VariableView((self._magic, *(values for _, values in self._layers), self._defaults), self._merge)

    def level_of(self, key: str) -> str | None:
        """Which level provides ``key`` ("magic", "defaults", or a ``Precedence`` name); for debugging output."""
        if key in self._magic:
            return "magic"
        for level, values in self._layers:
            if key in values:
                return level.name.lower()
        return "defaults" if key in self._defaults else None
