"""The run records' callback for a command's run: what the run is and what it read, described cheaply here;
the recorder hashes the files and writes the rows on its own thread (see runner.records)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.cli.common import command_line
from runner.cli.project import Project

if TYPE_CHECKING:
    from runner.callbacks.base import Callback
    from runner.compiler import Compiler
    from runner.plan import Plan


def plan_recorder(plan: Plan, compiler: Compiler, project: Project, options: dict[str, Any], kind: str,
                  playbook_dir: Path) -> Callback | None:
    """The recorder of a playbook or infra run (None when ``record_runs`` is off)."""
    if not project.config.record_runs:
        return None
    from runner.records import RunDescription, run_recorder
    from runner.records.description import inventory_sources, plan_files, plan_hash, tasks_hash

    # An infra run without -i runs on the servers it creates: the configured inventory was not read.
    sources = project.config.inventory if options.get("inventory") or kind != "infra" else []
    playbook = Path(plan.playbook)
    description = RunDescription(kind=kind, argv=command_line(), project_dir=playbook_dir.resolve(),
                                 check=bool(options["check"]), diff=bool(options["diff"]),
                                 playbook=str(playbook.resolve()) if playbook.is_file() else plan.playbook or None,
                                 plan_hash=plan_hash(plan), tasks_hash=tasks_hash(plan),
                                 files=plan_files(plan, compiler.vars_files) + inventory_sources(sources))
    return run_recorder(project.config, description)


def adhoc_recorder(project: Project, options: dict[str, Any], project_dir: Path) -> Callback | None:
    """The recorder of an ad-hoc run (None when ``record_runs`` is off)."""
    if not project.config.record_runs:
        return None
    from runner.records import RunDescription, run_recorder
    from runner.records.description import inventory_sources

    description = RunDescription(kind="adhoc", argv=command_line(), project_dir=project_dir.resolve(),
                                 check=bool(options["check"]), diff=bool(options["diff"]),
                                 files=inventory_sources(project.config.inventory))
    return run_recorder(project.config, description)
