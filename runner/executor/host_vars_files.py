"""A play's ``vars_files`` entries named with a host's variables (``vars/{{ ansible_os_family }}.yml``), read per
host when its tasks run, as Ansible reads them: the first candidate of the entry that names an existing file
is read; none existing adds nothing; an entry whose name is still undefined is passed over until the host's
facts are gathered, and is an error after that."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.errors import UserError
from runner.loader.vars_files import first_vars_file, read_vars_file
from runner.plan import PlanPlay
from runner.templating import Templar
from runner.templating.errors import TemplateError


class HostVarsFiles:
    """One worker's reader: each file is read once, whichever hosts name it."""

    def __init__(self) -> None:
        self.files: dict[Path, dict[str, Any]] = {}

    def values(self, play: PlanPlay, variables: Mapping[str, Any], *, facts_gathered: bool) -> dict[str, Any]:
        """The variables the play's per-host entries give the host whose ``variables`` these are."""
        templar = Templar(variables)
        directory = Path(play.search_paths[0]) if play.search_paths else Path(".")
        merged: dict[str, Any] = {}
        for candidates in play.vars_files:
            try:
                # a lookup in a name (``{{ lookup('first_found', names) }}``) looks where the play's tasks would
                found = first_vars_file(candidates, directory,
                                        lambda name: str(templar.template(name, search_paths=play.search_paths)))
            except TemplateError as exc:
                if not exc.undefined:
                    raise UserError(f"vars_files entry {candidates!r}: {exc.message}") from None
                if facts_gathered:
                    entry = candidates[0] if len(candidates) == 1 else candidates
                    raise UserError("an undefined variable was found when attempting to template the vars_files "
                                    f"item {entry!r}: {exc.message}") from None
                continue  # the host may not know it yet (its facts not gathered): Ansible passes it over too
            if found is not None:
                merged.update(self._read(found, play.position))
        return merged

    def _read(self, path: Path, position: str) -> dict[str, Any]:
        if path not in self.files:
            self.files[path] = read_vars_file(path, position)
        return self.files[path]


