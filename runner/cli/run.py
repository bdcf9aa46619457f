"""Running a compiled plan with the playbook executor: what ``provisioning-playbook`` and ``provisioning-infra``
share once their plan is built."""

from __future__ import annotations

import sys
import time
from collections import ChainMap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.callbacks import Callbacks, DefaultOptions, make_callbacks
from runner.callbacks.base import Callback, TaskInfo
from runner.cli.callback_plugins import other_plugin_callbacks, stdout_plugin_view
from runner.cli.keeper import keep_connections
from runner.cli.options import connection_defaults
from runner.cli.project import Project
from runner.cli.recording import plan_recorder
from runner.cli.run_magic import run_magic_variables
from runner.compiler import Compiler
from runner.config import Config
from runner.config.support import enabled_callback
from runner.plan import Plan, PlanRole

if TYPE_CHECKING:
    from runner.executor.fact_cache import FactCache
    from runner.executor.resume import ResumePlan


def run_plan(plan: Plan, compiler: Compiler, project: Project, options: dict[str, Any], *,
             extra_vars: dict[str, Any], playbook_dir: str | Path, reports: Sequence[str] = (),
             force_handlers: bool = False, start_at_task: str | None = None, retry_files: bool = False,
             kind: str = "playbook", summary: Callback | None = None,
             step: Callable[[TaskInfo], bool] | None = None, resume: ResumePlan | None = None) -> int:
    """Run ``plan`` on ``project.inventory``; ``options`` are the shared command-line options (check, diff,
    verbosity, limit, connection ...). ``retry_files``: the command takes ``--limit @FILE``, so the
    configuration's retry files are written for it. ``kind`` names the command for the run records.
    ``summary``: a callback that replaces the configured output and reports (a command that prints its own
    summary). ``step``: asked before each task whether to run it (``--step``). ``resume``: where each host
    picks up (``--resume``).
    Returns the exit code."""
    # The executor (and asyncssh with it) loads only for a real run, before the workers fork so they share it;
    # so do the controller-side actions (copy, template, ...), which workers would otherwise each import.
    import runner.actions  # noqa: F401
    from runner.executor.executor_choice import parse_executor
    from runner.executor.playbook import PlaybookExecutor
    from runner.executor.playbook_worker import RunOptions

    executor_choice = parse_executor(project.config.executor)  # a bad spelling is an option error, before output
    callbacks = Callbacks([summary]) if summary is not None else run_callbacks(
        project, Path(plan.playbook), options, [*reports], retry_files=retry_files, roles=plan.roles,
        extra_vars=extra_vars)
    recorder = plan_recorder(plan, compiler, project, options, kind, Path(playbook_dir))
    if recorder is not None:
        callbacks.callbacks.append(recorder)
    run_options = RunOptions(defaults=connection_defaults(project.config, options), check=options["check"],
                             diff=options["diff"], extra_vars=extra_vars, library=project.library,
                             collections_path=project.collections_path, verbosity=options["verbosity"],
                             playbook_dir=str(Path(playbook_dir).resolve()),
                             force_handlers=force_handlers,
                             host_pattern_mismatch=project.config.host_pattern_mismatch,
                             hash_behaviour=project.config.hash_behaviour,
                             module_rlimit_nofile=project.config.python_module_rlimit_nofile,
                             error_on_missing_handler=project.config.error_on_missing_handler,
                             inject_invocation=bool(project.config.inject_invocation),
                             magic_vars=run_magic_variables(project, options, tags=compiler.options.tags,
                                                            skip_tags=compiler.options.skip_tags))
    keep_connections(project.config)
    fact_cache = project_fact_cache(project, callbacks, flush=bool(options.get("flush_cache")),
                                    playbook_dir=Path(playbook_dir))
    executor = PlaybookExecutor(plan, project.inventory, run_options, callbacks, forks=project.config.forks,
                                limit=options.get("limit"), include_compiler=compiler.compile_include,
                                include_path=compiler.include_path,
                                start_at_task=start_at_task, step=step, resume=resume,
                                executor=executor_choice, fact_cache=fact_cache,
                                reload_inventory=project.reload_inventory)
    return executor.run()


def project_fact_cache(project: Project, callbacks: Callback, *, flush: bool, playbook_dir: Path) -> FactCache:
    """The fact cache the configuration names (a cache plugin is also looked for beside the playbook);
    ``--flush-cache`` empties the inventory's hosts' entries first."""
    from runner.executor.fact_cache import make_fact_cache

    config = project.config
    cache = make_fact_cache(config.fact_caching, config.fact_caching_connection,
                            prefix=config.fact_caching_prefix or "", timeout=config.fact_caching_timeout,
                            warn=callbacks.warning, plugin_dirs=[playbook_dir],
                            collections_paths=project.collections_path)
    if flush:  # the implicit localhost's entry too: a run on it reads and writes one
        for host in {*project.inventory.hosts, "localhost"}:
            cache.clear(host)
    return cache


def _option_variable(extra_vars: Mapping[str, Any], name: str, configured: bool) -> bool:
    """A default-view option a variable sets, as ansible-core 2.21 reads it: from the extra vars, templated with
    them; one that renders to ``omit`` leaves the configured value."""
    if name not in extra_vars:
        return configured
    from runner.templating import OMIT, Templar
    from runner.templating.filters.core import to_bool

    value = Templar(ChainMap(dict(extra_vars), {"omit": OMIT})).template(extra_vars[name])
    return configured if isinstance(value, str) and value == OMIT else bool(to_bool(value))


def run_callbacks(project: Project, playbook: Path, options: dict[str, Any], reports: list[str], *,
                  retry_files: bool, roles: Sequence[PlanRole] = (), extra_vars: Mapping[str, Any] | None = None
                  ) -> Callbacks:
    """The stdout view and reports the configuration and the command line ask for, the retry file first, then
    the callback plugins written against Ansible's Python API (beside the playbook and in ``roles``). Extra vars
    may set the default view's ``display_skipped_hosts`` (``ansible_display_skipped_hosts``, ansible-core 2.21)."""
    config = project.config
    first: list[Callback] = []
    if retry_files and config.retry_files:
        first.append(_retry_file(config, playbook, project))
    from runner.callbacks.terminal import Terminal

    owners = [playbook.parent, *(Path(role.path) for role in roles)]
    warn = Terminal(sys.stderr, nocolor=config.nocolor, force_color=config.force_color, log=project.log).warning
    callbacks = make_callbacks(config.stdout_callback, [*reports, *_enabled_reports(config, playbook)],
                               options["verbosity"], options["diff"], config.nocolor, force_color=config.force_color,
                               display_ok_hosts=config.display_ok_hosts,
                               display_skipped_hosts=_option_variable(extra_vars or {}, "ansible_display_skipped_hosts",
                                                                      config.display_skipped_hosts),
                               log=project.log, first=first,
                               result_format=config.callback_result_format,
                               pretty_results=config.callback_format_pretty,
                               show_custom_stats=config.show_custom_stats,
                               options=_default_options(config),
                               stdout_plugin=stdout_plugin_view(project, owners, warn, diff=options["diff"]))
    others = other_plugin_callbacks(project, owners, warn, diff=options["diff"])
    if others is not None:
        callbacks.callbacks.append(others)
    return callbacks


def _default_options(config: Config) -> DefaultOptions:
    """The default view's settings of the configuration (ansible-core's default callback options)."""
    return DefaultOptions(display_failed_stderr=config.display_failed_stderr,
                          show_task_path_on_failure=config.show_task_path_on_failure,
                          display_included_hosts=config.display_included_hosts,
                          check_mode_markers=config.check_mode_markers,
                          result_indentation=config.callback_result_indentation,
                          yaml_line_width=config.callback_result_yaml_line_width)


def _retry_file(config: Config, playbook: Path, project: Project) -> Callback:
    from runner.callbacks.retry import RetryFile, retry_file_path
    from runner.callbacks.terminal import Terminal

    save_dir = Path(config.retry_files_save_path) if config.retry_files_save_path else None
    # The message goes with the view's output; beside the JSON view's document it goes to stderr, keeping the
    # document whole.
    out = Terminal(sys.stderr if config.stdout_callback == "json" else None, nocolor=config.nocolor,
                   force_color=config.force_color, log=project.log)
    return RetryFile(retry_file_path(playbook, save_dir), out)


def _enabled_reports(config: Config, playbook: Path) -> list[str]:
    """``--report`` specs for the reporters of callbacks_enabled (unknown ones were warned about on loading):
    junit writes ``<playbook>-<time>.xml`` in junit_output_dir, as Ansible's junit callback names its files."""
    names = {enabled_callback(name) for name in config.callbacks_enabled} - {None}
    if "junit" in names:
        return [f"junit:{Path(config.junit_output_dir) / f'{playbook.stem}-{time.time()}.xml'}"]
    return []

