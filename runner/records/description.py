"""What the controller knows of a run when it starts: taken on the main thread, cheaply (no file is read here).

The writer thread turns it into the run's row: the command line with secrets masked, the user, the project's git
commit, and the files the run read, hashed.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from runner.plan import Plan

# A role or inventory directory is recorded whole, up to this many files (a big files/ tree is cut short).
DIRECTORY_FILES_LIMIT = 500


@dataclass
class RunDescription:
    kind: str  # playbook | adhoc | infra
    project_dir: Path
    check: bool
    diff: bool
    argv: list[str] = field(default_factory=lambda: list(sys.argv))  # the command line, as typed
    playbook: str | None = None
    plan_hash: str | None = None
    tasks_hash: str | None = None
    # (kind, path) of what the run read: playbooks and task files, vars files, inventory; a directory (a role,
    # an inventory directory) stands for the files in it, listed by the writer thread
    files: list[tuple[str, Path]] = field(default_factory=list)


def plan_hash(plan: Plan) -> str:
    """sha256 of the plan as ``--plan`` writes it (so the same playbook compiled the same way hashes the same)."""
    from runner.plan.export import plan_document

    text = json.dumps(plan_document(plan), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def tasks_hash(plan: Plan) -> str:
    """sha256 of the plan without its variables' values (play, role, block and vars-file scopes emptied): what
    ``--resume`` compares. A run fixed by a variable (``-e``, a vars file, play vars) resumes; a task, play or
    role that was added, removed, moved or edited makes it another plan."""
    from runner.plan.export import plan_document

    document = plan_document(plan)
    for scope in document.get("scopes", []):
        scope["vars"] = {}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _file_of(position: str | None) -> str | None:
    if not position:
        return None
    parts = position.rsplit(":", 2)
    return parts[0] if len(parts) == 3 and parts[1].isdigit() else position


def plan_files(plan: Plan, vars_files: Iterable[Path] = ()) -> list[tuple[str, Path]]:
    """What a compiled plan came from: playbooks and task files (from the positions), role directories, and the
    ``vars_files`` the compiler read."""
    seen: dict[Path, str] = {}
    roles = list(dict.fromkeys(Path(role.path) for role in plan.roles))
    positions = [task.position for task in plan.tasks] + [play.position for play in plan.plays] + \
        [scope.position or "" for scope in plan.scopes]
    for position in positions:
        name = _file_of(position)
        if name:
            path = Path(name)
            seen.setdefault(path, "role" if any(path.is_relative_to(role) for role in roles) else "playbook")
    for path in vars_files:
        seen.setdefault(path, "vars")
    return [(kind, path) for path, kind in seen.items()] + [("role", role) for role in roles]


def inventory_sources(sources: Iterable[str | Path]) -> list[tuple[str, Path]]:
    """Inventory sources that name files or directories (``host1,host2,`` lists name none)."""
    return [("inventory", Path(source)) for source in sources if "," not in str(source)]


def expand(entries: Iterable[tuple[str, Path]]) -> Iterable[tuple[str, Path]]:
    """Each file once, directories replaced by their files (hidden ones left out); missing paths dropped."""
    seen: set[Path] = set()
    for kind, path in entries:
        if path.is_dir():
            candidates = [(kind, item) for item in _files_under(path)]
        else:
            candidates = [(kind, path)] if path.is_file() else []
        for item_kind, item in candidates:
            if item not in seen:
                seen.add(item)
                yield item_kind, item


def _files_under(directory: Path) -> Iterable[Path]:
    count = 0
    for path in sorted(directory.rglob("*")):
        if count >= DIRECTORY_FILES_LIMIT:
            return
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(directory).parts):
            count += 1
            yield path
