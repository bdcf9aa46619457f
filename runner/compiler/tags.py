"""Tag selection, as Ansible's ``--tags`` / ``--skip-tags`` choose tasks.

``always`` runs unless skipped by name; ``never`` runs only when one of its other tags (or ``never``) is asked
for; ``tagged`` and ``untagged`` select by whether a task has tags at all; ``all`` (the default) selects every
task without ``never``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TagFilter:
    only: frozenset[str] = field(default_factory=lambda: frozenset({"all"}))
    skip: frozenset[str] = frozenset()

    @classmethod
    def of(cls, tags: Iterable[str], skip_tags: Iterable[str]) -> TagFilter:
        return cls(frozenset(tags) or frozenset({"all"}), frozenset(skip_tags))

    def selects(self, task_tags: Iterable[str]) -> bool:
        tags = set(task_tags)
        if self._matches(self.skip, tags, skipping=True):
            return False
        if "always" in tags and "always" not in self.skip:
            return True
        return self._matches(self.only, tags, skipping=False)

    @staticmethod
    def _matches(wanted: frozenset[str], tags: set[str], *, skipping: bool) -> bool:
        if not wanted:
            return False
        if "never" in tags and not skipping and not (wanted & (tags - {"always"})):
            return False
        if "all" in wanted and not skipping:
            return True
        if "tagged" in wanted and tags:
            return True
        if "untagged" in wanted and not tags:
            return True
        return bool(wanted & tags)
