"""Running a compiled plan with the playbook executor: what ``provisioning-playbook`` and ``provisioning-infra``
share once their plan is built."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from runner.callbacks import make_callbacks
from runner.cli.options import connection_defaults
from runner.cli.session import Project
from runner.compiler import Compiler
from runner.plan import Plan


def run_plan(plan: Plan, compiler: Compiler, project: Project, options: dict[str, Any], *,
             extra_vars: dict[str, Any], playbook_dir: str | Path, reports: Sequence[str] = (),
             force_handlers: bool = False, start_at_task: str | None = None) -> int:
    """Run ``plan`` on ``project.inventory``; ``options`` are the shared command-line options (check, diff,
    verbosity, limit, connection ...). Returns the exit code."""
    # The executor (and asyncssh with it) loads only for a real run, before the workers fork so they share it;
    # so do the controller-side actions (copy, template, ...), which workers would otherwise each import.
    import runner.actions  # noqa: F401
    from runner.executor.playbook import PlaybookExecutor
    from runner.executor.task_exec import RunOptions

    callbacks = make_callbacks(project.config.stdout_callback, list(reports), options["verbosity"],
                               options["diff"], project.config.nocolor)
    run_options = RunOptions(defaults=connection_defaults(project.config, options), check=options["check"],
                             diff=options["diff"], extra_vars=extra_vars, library=project.library,
                             verbosity=options["verbosity"], playbook_dir=str(Path(playbook_dir).resolve()),
                             force_handlers=force_handlers)
    executor = PlaybookExecutor(plan, project.inventory, run_options, callbacks, forks=project.config.forks,
                                limit=options.get("limit"), include_compiler=compiler.compile_include,
                                start_at_task=start_at_task)
    return executor.run()
