"""The install order of the taskservs of one host.

The rules (docs/taskservs.md):

- Every host gets ``os`` (the platform's rule), before everything that ``os`` itself does not require.
- ``requires`` pulls taskservs in and installs them first, once per host. A name no role has is matched against
  what the host's other taskservs ``provides``.
- ``optional`` pulls nothing in; when the host gets that taskserv too, it is installed first.
- A cycle is an error naming it: ``Circular dependency detected: a -> b -> a``.
- ``conflicts`` (a taskserv, or a name one provides) on the same host is an error naming both.
- A version constraint (``containerd>=1.6``) must hold for the version the required role declares.
- The order is topological and deterministic: depth first, in the order things were asked for and written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from runner.errors import ParseError, SourcePosition, UserError, did_you_mean
from runner.models.taskserv import Requirement
from runner.models.validation import raise_collected
from runner.taskservs.catalog import Taskserv, TaskservCatalog

BASE_TASKSERV = "os"


@dataclass(frozen=True)
class Wanted:
    """A taskserv asked for on a host, and where it was asked for (an infra entry; None on a command line)."""

    name: str
    position: SourcePosition | None = None


@dataclass(frozen=True)
class Step:
    """One taskserv in the install order, and why it is there."""

    taskserv: Taskserv
    required_by: str | None = None  # None: asked for (or the base); else the first taskserv that required it

    @property
    def name(self) -> str:
        return self.taskserv.name


@dataclass
class Resolution:
    """The install order of one host, and its hard requirements (for deletion and partial installs)."""

    steps: list[Step]
    requires: dict[str, list[str]] = field(default_factory=dict)  # taskserv -> what it needs installed first

    def names(self) -> list[str]:
        return [step.name for step in self.steps]

    def step(self, name: str) -> Step | None:
        return next((step for step in self.steps if step.name == name), None)

    def closure(self, names: Iterable[str]) -> list[Step]:
        """The steps ``names`` need, themselves included, in install order."""
        needed: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name not in needed:
                needed.add(name)
                pending.extend(self.requires.get(name, ()))
        return [step for step in self.steps if step.name in needed]

    def dependents(self, name: str) -> list[Step]:
        """``name`` and every step that needs it, in install order (delete them in reverse)."""
        return [step for step in self.steps if name in self.closure_names(step.name)]

    def closure_names(self, name: str) -> set[str]:
        return {step.name for step in self.closure([name])}


def resolve(wanted: Sequence[Wanted], catalog: TaskservCatalog, *, host: str | None = None,
            base: str | None = BASE_TASKSERV) -> Resolution:
    """The taskservs ``wanted`` on one host with everything they require, in install order. Every problem is
    raised together (``ParseErrors``), each at the place that caused it. ``host`` names the host in messages."""
    return _Resolver(catalog, host, base).run(wanted)


class _Resolver:
    def __init__(self, catalog: TaskservCatalog, host: str | None, base: str | None):
        self.catalog = catalog
        self.on = f" on '{host}'" if host else ""
        self.base = base
        self.errors: list[UserError] = []
        self.nodes: dict[str, Taskserv] = {}
        self.required_by: dict[str, str | None] = {}
        self.origin: dict[str, SourcePosition | None] = {}  # where each taskserv was asked for or required

    def run(self, wanted: Sequence[Wanted]) -> Resolution:
        roots = self._collect(wanted)
        edges = {name: self._edges(name) for name in self.nodes}
        self._check_versions(edges)
        self._check_conflicts()
        order: list[str] = []
        if not self.errors:
            order = self._order(roots, edges)
        raise_collected(self.errors)
        hard = {name: [target for target, requirement, _ in edges[name] if requirement is None
                       or requirement in self.nodes[name].meta.requires] for name in self.nodes}
        return Resolution([Step(self.nodes[name], self.required_by[name]) for name in order], hard)

    # -- what the host gets ----------------------------------------------------------------------------------
    def _collect(self, wanted: Sequence[Wanted]) -> list[str]:
        """Read every taskserv asked for and everything they require; the roots of the order, in order."""
        queue: list[tuple[str, str | None, SourcePosition | None]] = []
        if self.base:
            queue.append((self.base, None, wanted[0].position if wanted else None))
        queue += [(entry.name, None, entry.position) for entry in wanted]
        roots = list(dict.fromkeys(name for name, _, _ in queue))
        while queue:
            name, requirer, position = queue.pop(0)
            if name in self.nodes:
                continue
            try:
                taskserv = self.catalog.get(name, position)
            except UserError as exc:
                if name == self.base and requirer is None:
                    exc = ParseError(f"every host gets the taskserv '{name}' first: {exc.message}", position,
                                     hint=exc.hint)
                self.errors.append(exc)
                continue
            self.nodes[name] = taskserv
            self.required_by[name] = requirer
            self.origin[name] = position
            for requirement in taskserv.meta.requires:
                if self.catalog.exists(requirement.name):
                    queue.append((requirement.name, name, requirement.position))
        return roots

    def _providers(self, name: str) -> list[str]:
        return [other for other, taskserv in self.nodes.items() if name in taskserv.meta.provides]

    def _edges(self, name: str) -> list[tuple[str, Requirement | None, SourcePosition | None]]:
        """What ``name`` is installed after: the base, what it requires, the optional ones the host gets."""
        taskserv = self.nodes[name]
        edges: list[tuple[str, Requirement | None, SourcePosition | None]] = []
        if self.base is not None and self.base in self.nodes and name not in self._base_needs():
            edges.append((self.base, None, None))
        for requirement in taskserv.meta.requires:
            targets = [requirement.name] if requirement.name in self.nodes else self._providers(requirement.name)
            if not targets and not self.catalog.exists(requirement.name):
                self.errors.append(ParseError(
                    f"taskserv '{name}' requires '{requirement.name}', which is no role and which no taskserv"
                    f"{self.on} provides", requirement.position or self.origin[name],
                    hint=did_you_mean(requirement.name, self.catalog.names())))
            edges += [(target, requirement, requirement.position) for target in targets]
        for requirement in taskserv.meta.optional:
            targets = [requirement.name] if requirement.name in self.nodes else self._providers(requirement.name)
            edges += [(target, requirement, requirement.position) for target in targets]
        return edges

    def _base_needs(self) -> set[str]:
        """The base and what it requires: these are not installed after the base."""
        needs: set[str] = set()
        pending = [self.base] if self.base else []
        while pending:
            name = pending.pop()
            if name in needs or name not in self.nodes:
                continue
            needs.add(name)
            pending += [requirement.name for requirement in self.nodes[name].meta.requires]
        return needs

    # -- checks ----------------------------------------------------------------------------------------------
    def _check_versions(self, edges: dict[str, list[tuple[str, Requirement | None, SourcePosition | None]]]) -> None:
        for name, targets in edges.items():
            for target, requirement, position in targets:
                if requirement is None or requirement.version is None:
                    continue
                version = self.nodes[target].version
                where = position or self.origin[name]
                if version is None:
                    self.errors.append(ParseError(
                        f"taskserv '{name}' requires {requirement}, but '{target}' declares no version", where))
                elif not requirement.allows(version):
                    self.errors.append(ParseError(
                        f"taskserv '{name}' requires {requirement}, but '{target}' is version {version}", where))

    def _check_conflicts(self) -> None:
        reported: set[frozenset[str]] = set()
        for name, taskserv in self.nodes.items():
            for conflict in taskserv.meta.conflicts:
                for other, found in self.nodes.items():
                    pair = frozenset((name, other))
                    if other == name or pair in reported:
                        continue
                    if conflict == other:
                        why = ""
                    elif conflict in found.meta.provides:
                        why = f" ('{name}' conflicts with '{conflict}', which '{other}' provides)"
                    else:
                        continue
                    reported.add(pair)
                    self.errors.append(ParseError(
                        f"taskservs '{name}' and '{other}' conflict{self.on}{why}",
                        self.origin[other] or self.origin[name]))

    # -- the order -------------------------------------------------------------------------------------------
    def _order(self, roots: list[str],
               edges: dict[str, list[tuple[str, Requirement | None, SourcePosition | None]]]) -> list[str]:
        """Depth first: what a taskserv is installed after comes before it, in the order it was written."""
        order: list[str] = []
        done: set[str] = set()
        path: list[str] = []

        def visit(name: str, position: SourcePosition | None) -> None:
            if name in done:
                return
            if name in path:
                cycle = [*path[path.index(name):], name]
                raise ParseError(f"Circular dependency detected: {' -> '.join(cycle)}", position)
            path.append(name)
            for target, _, where in edges[name]:
                visit(target, where or self.origin[name])
            path.pop()
            done.add(name)
            order.append(name)

        try:
            for name in [*roots, *self.nodes]:
                if name in self.nodes:
                    visit(name, self.origin[name])
        except ParseError as exc:
            self.errors.append(exc)
        return order
