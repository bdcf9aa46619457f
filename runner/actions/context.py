"""What a controller-side action receives: the task's host, its connection, its arguments and flags.

An action runs on the controller instead of (or around) the module's agent call: ``raw`` needs no Python on
the host, ``copy`` reads files on the controller and sends them over the host's connection.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.connection import BecomeSettings, HostSession
from runner.errors import UserError
from runner.module_index import ModuleInfo


@dataclass
class ActionContext:
    host: str
    session: HostSession
    module: ModuleInfo
    args: dict[str, Any]  # the task's arguments, already templated
    check: bool = False
    diff: bool = False
    become: BecomeSettings | None = None
    environment: dict[str, Any] | None = None
    search_paths: list[Path] = field(default_factory=list)  # role dir, playbook dir, cwd: where a relative src is
    task_vars: Mapping[str, Any] = field(default_factory=dict)

    async def run_module(self, name: str | None = None, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run a module on the host through its agent, with this task's check/diff/become/environment."""
        return await self.session.run_module(name or self.module.name, self.args if args is None else args,
                                             check=self.check, diff=self.diff, become=self.become,
                                             environment=self.environment)

    def find_file(self, relative: str, subdir: str = "files") -> Path:
        """A controller file named by a task: ``<path>/<subdir>/<relative>``, then ``<path>/<relative>``, for
        each search path in order (as Ansible looks in a role's files/ before the playbook's directory)."""
        wanted = Path(relative).expanduser()
        candidates = [wanted] if wanted.is_absolute() else [
            candidate for base in self.search_paths for candidate in (base / subdir / wanted, base / wanted)]
        for candidate in candidates:
            if candidate.exists():
                return candidate
        searched = ", ".join(str(c) for c in candidates) or "no search path given"
        raise UserError(f"Could not find or access '{relative}' on the controller (searched: {searched})")
