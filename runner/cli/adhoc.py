"""``provisioning PATTERN -m MODULE -a ARGS``: run one module on the hosts a pattern selects."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from runner.callbacks.adhoc import AdhocDisplay
from runner.callbacks.tree import ResultTree
from runner.cli.adhoc_play import is_play_action, json_arguments
from runner.cli.common import Command, report_errors
from runner.cli.keeper import keep_connections
from runner.cli.options import CONTEXT_SETTINGS, config_overrides, connection_defaults, parse_extra_vars, shared_options
from runner.errors import ExitCode, OptionError
from runner.module_index import ModuleIndex


def _module_args(index: ModuleIndex, module: str, text: str | None) -> dict[str, Any]:
    """``-a`` as JSON or free-form ``k=v``; free text goes to the module's free-form argument."""
    from modules._utils import ArgumentError, validate_arguments
    from runner.parsing.kv import RAW_PARAMS, parse_kv
    from runner.templating import literal_values

    info = index.get(module)
    text = (text or "").strip()
    if text.startswith("{"):
        args = json_arguments(text)
    else:
        # as a task's arguments are read (runner/plan/module_args.py)
        command_line = info.free_form == RAW_PARAMS
        args = parse_kv(text, check_raw=command_line, keep_raw=not command_line) if text else {}
    if info.free_form and "_raw_params" in args and info.free_form != "_raw_params":
        args[info.free_form] = args.pop("_raw_params")
    elif "_raw_params" in args and not info.free_form:
        raise OptionError(f"module {info.name} takes key=value arguments, not free text: {args['_raw_params']!r}")
    if info.any_arguments:
        return args
    try:
        # a templated value may yet be omit: it cannot conflict with another argument before the run
        validate_arguments(info.argument_spec, literal_values(args), info.spec_rules, check_values=False)
    except ArgumentError as exc:
        raise OptionError(f"{info.name}: {exc}") from None
    return args


def _templated(text: str, extra_vars: dict[str, Any]) -> str:
    """The host pattern or module name, a template rendered with the extra vars (``'{{ target }}'``) as
    Ansible renders them; plain text is returned as it is."""
    from runner.templating import Templar, is_template

    if not is_template(text):
        return text
    return str(Templar(extra_vars).template(text))


@click.command(cls=Command, context_settings=CONTEXT_SETTINGS)
@click.argument("pattern")
@click.option("-m", "--module-name", "module", default="command", show_default=True, help="Module to run.")
@click.option("-a", "--args", "module_args", help="Module arguments: key=value pairs, free text, or JSON.")
@click.option("-o", "--one-line", is_flag=True, help="Condense output to one line per host.")
@click.option("-B", "--background", type=click.IntRange(min=1), metavar="SECONDS",
              help="Run asynchronously, failing after SECONDS.")
@click.option("-P", "--poll", type=click.IntRange(min=0), default=15, show_default=True, metavar="SECONDS",
              help="With -B, how often to check on the job; 0 starts it in the background and does not wait.")
@click.option("--task-timeout", type=click.IntRange(min=0), default=0, metavar="SECONDS",
              help="Fail the module on a host that has not finished within SECONDS (0: no limit).")
@click.option("-t", "--tree", type=click.Path(file_okay=False, path_type=Path), metavar="DIR",
              help="Also write each host's result as JSON to DIR/<host>.")
@shared_options
@report_errors
def main(pattern: str, module: str, module_args: str | None, one_line: bool, background: int | None, poll: int,
         task_timeout: int, tree: Path | None, **options: Any) -> int:
    """Run MODULE on the hosts PATTERN selects (an Ansible host pattern: all, web*, web:&prod, ...)."""
    # Imported here, not with the module: --help and option errors answer without the executor and asyncssh.
    from runner.cli.project import load_project
    from runner.cli.run_magic import run_magic_variables
    from runner.executor.adhoc import AdhocRun, refuse_in_adhoc, run_adhoc
    from runner.executor.executor_choice import parse_executor
    from runner.inventory.pattern_mismatch import check_pattern
    from runner.templating import configure_plugins

    playbook_dir = Path(options.get("playbook_dir") or Path.cwd())
    project = load_project(config_overrides(options), playbook_dir, options=options)
    executor = parse_executor(project.config.executor)
    config = project.config
    one_line = one_line or (config.load_callback_plugins and config.stdout_callback == "oneline")
    extra_vars = parse_extra_vars(options["extra_vars"])
    # The configured filter_plugins and collections' plugins are seen by every template here, as a playbook's.
    configure_plugins(filter_dirs=project.filter_plugins, collections_paths=project.collections_path)
    pattern, module = _templated(pattern, extra_vars), _templated(module, extra_vars)
    if is_play_action(module):
        from runner.cli.adhoc_play import play_action_args, run_as_play

        project.inventory.check_limit(options.get("limit"), pattern)
        args = play_action_args(module, module_args, playbook_dir)
        return run_as_play(project, pattern, module, args, {**options, "one_line": one_line}, extra_vars,
                           playbook_dir)
    index = ModuleIndex(project.library, collections_paths=project.collections_path,
                        rejected=project.module_rejectlist)
    args = _module_args(index, module, module_args)
    refuse_in_adhoc(index, module)
    if config.fact_caching != "memory" or options.get("flush_cache"):
        from runner.cli.adhoc_play import run_as_play

        # A persistent fact cache is read and written as a playbook's run does: as a play of the one task.
        project.inventory.check_limit(options.get("limit"), pattern)
        return run_as_play(project, pattern, module, args, {**options, "one_line": one_line}, extra_vars,
                           playbook_dir)
    display = AdhocDisplay(one_line=one_line, verbosity=options["verbosity"], nocolor=config.nocolor,
                           force_color=config.force_color, log=project.log)
    check_pattern(project.inventory, pattern, config.host_pattern_mismatch, display.warning)
    project.inventory.check_limit(options.get("limit"), pattern)
    hosts = [host.name for host in project.inventory.get_hosts(pattern, limit=options.get("limit"))]
    if not hosts:
        display.warning(f"No hosts matched '{pattern}'" + (f" with limit '{options['limit']}'"
                                                          if options.get("limit") else ""))
        return ExitCode.OK
    if options["list_hosts"]:
        display.list_hosts(hosts)
        return ExitCode.OK
    results_tree = ResultTree(tree, display.warning) if tree is not None else None
    run = AdhocRun(hosts=hosts, module=module, args=args, host_vars=project.inventory.host_vars,
                   defaults=connection_defaults(project.config, options), forks=project.config.forks,
                   check=options["check"], diff=options["diff"], extra_vars=extra_vars,
                   magic_vars=run_magic_variables(project, options), library=project.library,
                   collections_path=project.collections_path,
                   background=background, poll=poll, timeout=task_timeout or None,
                   verbosity=options["verbosity"], executor=executor)
    keep_connections(config)
    from runner.callbacks.adhoc_events import AdhocEvents
    from runner.callbacks.results import censored
    from runner.cli.recording import adhoc_recorder
    from runner.secrets.censor import censor

    canonical = index.canonical(module)
    recorder = adhoc_recorder(project, options, Path(options.get("playbook_dir") or Path.cwd()))
    events = AdhocEvents(recorder, pattern, canonical, hosts, check=options["check"]) if recorder else None

    def on_result(host: str, result: dict[str, Any]) -> None:
        # a result that asks to be hidden (include_vars of an encrypted file) shows only that it was
        shown = censored(result) if result.get("_ansible_no_log") else censor(result)
        display.host_result(host, canonical, shown)
        if results_tree is not None:
            results_tree.write(host, shown)
        if events is not None:
            events.host_result(host, shown)

    summary = run_adhoc(run, on_result, on_start=events.start if events is not None else None)
    if events is not None:
        events.end(int(summary.exit_code))
    return summary.exit_code
