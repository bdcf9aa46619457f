"""Where each host of a resumed run picks up (``provisioning-playbook --resume``), and the stable ids of steps.

A step's key is its place in the host's walk: the plan's task ids, and below a dynamic include the loop item's
number and the included task. Included tasks get their ids when the include is compiled at run time, so the
same task may have another id in another run; a step's *stable key* counts an included task from the first
task of its include instead, and is what the run records keep (a task's ``uid``) and what a resume compares.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Key = tuple[int, ...]


def stable_key(key: Key, fragment_base: Mapping[int, int]) -> Key:
    """``key`` with each included task's id made relative to the first task of its include."""
    return tuple(part - fragment_base.get(part, 0) if index % 2 == 0 else part for index, part in enumerate(key))


def parse_uid(uid: str | None) -> Key | None:
    """A recorded task ``uid`` (``12.0.3``) as a key; None for anything else."""
    try:
        return tuple(int(part) for part in (uid or "").split("."))
    except ValueError:
        return None


@dataclass(frozen=True)
class HostPosition:
    """Where a host resumes in a play: at the step ``key`` (its failed task) or just after it (``inclusive``
    False: the last task it finished, when the run stopped it without a failure of its own)."""

    key: Key
    inclusive: bool

    def before(self, key: Key) -> bool:
        """Whether step ``key`` comes before this position, so the host does not run it again. An include whose
        tasks hold the position is not before it: it runs again to bring its tasks back."""
        if len(key) < len(self.key) and self.key[:len(key)] == key:
            return False
        return key < self.key or (key == self.key and not self.inclusive)


@dataclass
class ResumePlan:
    """What a resumed run takes from the run it resumes, by the index of the play in the plan."""

    run_id: int
    finished: dict[int, set[str]] = field(default_factory=dict)  # hosts that finished the play: left out
    positions: dict[int, dict[str, HostPosition]] = field(default_factory=dict)
    notified: dict[int, dict[str, list[str]]] = field(default_factory=dict)  # handlers notified, not yet run
    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # host -> kind -> name -> value
    hidden: dict[str, list[str]] = field(default_factory=dict)  # host -> variables set under no_log: not restored
