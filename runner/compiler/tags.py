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
        """Ansible's evaluate_tags: --tags first (always, all but never, a shared tag, tagged), then --skip-tags
        (all but always unless always is skipped too, a shared tag, tagged). A task without tags is 'untagged'."""
        tags = set(task_tags) or {"untagged"}
        untagged = tags == {"untagged"}
        only, skip = self.only, self.skip
        selected = ("always" in tags or ("all" in only and "never" not in tags) or bool(tags & only)
                    or ("tagged" in only and not untagged and "never" not in tags))
        if selected and skip:
            if "all" in skip:
                selected = "always" in tags and "always" not in skip
            elif tags & skip or ("tagged" in skip and not untagged):
                selected = False
        return selected


# Tag names that mean a selection to --tags and --skip-tags; ansible-core 2.21 warns where a playbook gives one to a
# play, role, block or task.
RESERVED_TAGS = ("all", "tagged", "untagged")


def reserved_tags_warning(tags: Iterable[object]) -> str | None:
    """ansible-core 2.21's warning for ``tags`` that name a reserved tag, or None."""
    found = [tag for tag in dict.fromkeys(tags) if tag in RESERVED_TAGS]
    if not found:
        return None
    return (f"Found reserved tagnames in tags: {found!r}, we do not recommend doing this as it might give "
            "unexpected results")
