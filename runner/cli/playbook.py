"""``provisioning-playbook PLAYBOOK... -i INV``: compile the playbooks into a plan, then run it.

Nothing touches a host until every playbook compiles: syntax, keywords, roles, modules and their arguments,
templates. ``--plan FILE`` writes the compiled plan; ``--syntax-check`` and the ``--list-*`` options read it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from runner.ansible_api.collections import split_fqcr
from runner.cli.common import Command, report_errors
from runner.cli.options import CONTEXT_SETTINGS, config_overrides, parse_extra_vars, shared_options
from runner.errors import ExitCode, OptionError
from runner.util.files import atomic_write_text

if TYPE_CHECKING:
    from runner.plan import Plan


def _split_tags(values: tuple[str, ...]) -> list[str]:
    return [tag.strip() for value in values for tag in value.split(",") if tag.strip()]


def collection_playbooks(playbooks: tuple[Path, ...], project: Any) -> tuple[Path, ...]:
    """The playbooks' files, a collection's playbook named ``NS.COLL.NAME`` found in the collections path (as
    ansible-playbook finds it); and the project's collections path with the ``collections`` folder beside each
    playbook that is not a collection's first, as ansible-core searches it."""
    from runner.ansible_api.collections import collection_of_path, collection_search_path, find_collection_playbook

    found: list[Path] = []
    for playbook in playbooks:
        located = None if playbook.is_file() else find_collection_playbook(str(playbook), project.collections_path)
        if located is None and not playbook.is_file():
            raise OptionError(f"the playbook: {playbook} could not be found")
        found.append(located[0] if located is not None else playbook)
    adjacent = [path.resolve().parent for path in found
                if collection_of_path(path, project.collections_path) is None]
    project.collections_path = collection_search_path(project.collections_path, adjacent)
    return tuple(found)


def _write_plan(plan: Plan, path: Path) -> None:
    """The plan as JSON: inline vault values stay encrypted; values of encrypted files are masked."""
    from runner.plan.export import plan_document

    atomic_write_text(path, json.dumps(plan_document(plan), indent=1, sort_keys=False) + "\n")


def _list(plan: Plan, project: Any, limit: str | None, list_hosts: bool, list_tasks: bool, list_tags: bool,
          extra_vars: dict[str, Any]) -> None:
    from runner.templating import Templar

    click.echo(f"\nplaybook: {plan.playbook}")
    for number, play in enumerate(plan.plays, start=1):
        click.echo(f"\n  play #{number} ({play.hosts}): {play.name}\tTAGS: [{', '.join(play.tags)}]")
        if list_hosts:
            pattern = Templar(dict(extra_vars)).template(play.hosts)
            hosts = [h.name for h in project.inventory.get_hosts(pattern, limit=limit)]
            click.echo(f"    pattern: {[pattern] if isinstance(pattern, str) else pattern}")
            click.echo(f"    hosts ({len(hosts)}):")
            for host in hosts:
                click.echo(f"      {host}")
        tasks = [plan.tasks[i] for section in play.sections for i in _flatten(plan, section)
                 if plan.tasks[i].kind != "facts"]  # fact gathering is implicit, Ansible does not list it
        if list_tasks:
            click.echo("    tasks:")
            for task in tasks:
                role = f"{plan.roles[task.role].display_name} : " if task.role is not None else ""
                click.echo(f"      {role}{task.name or task.module}\tTAGS: [{', '.join(sorted(set(task.tags)))}]")
        if list_tags:
            tags = sorted({tag for task in tasks for tag in task.tags})
            click.echo(f"      TASK TAGS: [{', '.join(tags)}]")


def _flatten(plan: Plan, ids: list[int]) -> list[int]:
    flat: list[int] = []
    for task_id in ids:
        node = plan.tasks[task_id]
        if node.kind == "block":
            flat += _flatten(plan, node.block) + _flatten(plan, node.rescue) + _flatten(plan, node.always)
        else:
            flat.append(task_id)
    return flat


@click.command(cls=Command, context_settings=CONTEXT_SETTINGS)
@click.argument("playbooks", nargs=-1, type=click.Path(path_type=Path))
@click.option("--infra", "infras", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help="Create the servers of this infra file, install their taskservs and set up its clusters first "
                   "(as an import_infra entry; repeatable).")
@click.option("-t", "--tags", multiple=True, help="Only run plays and tasks tagged with these values.")
@click.option("--skip-tags", multiple=True, help="Only run plays and tasks whose tags do not match these values.")
@click.option("--start-at-task", help="Start the playbook at the task matching this name.")
@click.option("--list-tasks", is_flag=True, help="List all tasks that would be executed.")
@click.option("--list-tags", is_flag=True, help="List all available tags.")
@click.option("--syntax-check", is_flag=True, help="Compile the playbook (syntax, roles, modules) but do not run it.")
@click.option("--force-handlers", is_flag=True, help="Run handlers even if a task fails.")
@click.option("--step", is_flag=True,
              help="Ask before each task whether to run it: (N)o/(y)es/(c)ontinue (needs a terminal).")
@click.option("--plan", "plan_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the compiled execution plan as JSON to FILE and exit.")
@click.option("--report", "reports", multiple=True, help="Write a report: junit:FILE or json:FILE (repeatable).")
@click.option("--resume", "resume", is_flag=False, flag_value="last", default=None, metavar="[RUN]",
              help="Continue the last failed run of this playbook (or run RUN) where each host stopped, from the "
                   "run records.")
@click.option("--force", is_flag=True, help="With --resume: resume even though the playbook's tasks changed.")
@click.option("--no-plan-cache", is_flag=True,
              help="Compile the playbook afresh, neither reading nor writing the plan cache (plan_cache = false).")
@shared_options
@report_errors
def main(playbooks: tuple[Path, ...], infras: tuple[Path, ...], tags: tuple[str, ...], skip_tags: tuple[str, ...],
         start_at_task: str | None, list_tasks: bool, list_tags: bool, syntax_check: bool, force_handlers: bool,
         step: bool, plan_file: Path | None, reports: tuple[str, ...], resume: str | None, force: bool,
         no_plan_cache: bool, **options: Any) -> int:
    """Run PLAYBOOKS (Ansible's playbook language) against the inventory."""
    from runner.cli.resume import parse_resume
    from runner.cli.step import StepPrompt

    stepper = StepPrompt() if step else None  # before anything runs: no terminal to ask on is a bad option
    resume_run = parse_resume(resume, force, start_at_task)
    if not playbooks and not infras:
        raise OptionError("name a playbook to run (or an infra with --infra FILE)")
    for playbook in playbooks:
        if not playbook.is_file() and split_fqcr(str(playbook).removesuffix(".yml").removesuffix(".yaml")) is None:
            raise OptionError(f"the playbook: {playbook} could not be found")
    for infra in infras:
        if not infra.is_file():
            raise OptionError(f"the infra: {infra} could not be found")
    # Imported here, not with the module: --help and option errors answer without loading the compiler.
    from runner.cli.project import inventory_reloader, load_hosts, load_project, play_defaults
    from runner.cli.run import run_plan
    from runner.compiler import CompileOptions, Compiler
    from runner.compiler.plan_cache import compile_with_cache
    from runner.loader.reads import recording_reads

    first = (playbooks or infras)[0]
    project = load_project(config_overrides(options),
                           options.get("playbook_dir") or (first.resolve().parent if first.is_file() else Path.cwd()),
                           need_inventory=False, options=options)
    if not (syntax_check or plan_file or list_tasks or list_tags or options["list_hosts"]):
        from runner.cli.keeper import start_keeper_ahead

        start_keeper_ahead(project.config, options)  # its start overlaps the compile
    playbooks = collection_playbooks(playbooks, project)
    playbook_dir = options.get("playbook_dir") or (playbooks or infras)[0].resolve().parent
    with recording_reads():  # an -e @file is read for the plan too: the plan cache keys it by content
        extra_vars = parse_extra_vars(options["extra_vars"])  # after the passwords: -e @file may be encrypted
        compile_options = CompileOptions(tags=_split_tags(tags), skip_tags=_split_tags(skip_tags),
                                         roles_path=project.roles_path, library=project.library,
                                         collections_path=project.collections_path,
                                         filter_plugins=project.filter_plugins, extra_vars=extra_vars,
                                         module_rejectlist=project.module_rejectlist,
                                         **play_defaults(project.config),
                                         precompile=not (syntax_check or plan_file or list_tasks or list_tags
                                                         or options["list_hosts"]))
        compiler = Compiler(compile_options)
        plan = compile_with_cache(compiler, playbooks, infras, project.config,
                                  enabled=project.config.plan_cache and not no_plan_cache)
    if plan_file:
        _write_plan(plan, plan_file)
        return ExitCode.OK
    if syntax_check:
        click.echo(f"\nplaybook: {', '.join(str(p) for p in playbooks or infras)}")
        return ExitCode.OK
    if options["list_hosts"] or not (list_tasks or list_tags):
        # Nothing is read (and no test host started) before the plan compiles. A plan that creates an infra's
        # servers runs on them: the configured inventory is read only when -i names one.
        configured = not compiler.imported_infras or bool(options["inventory"])
        project.inventory = load_hosts(project.config, playbook_dir, configured=configured,
                                       verbosity=options["verbosity"],
                                       flush_cache=bool(options.get("flush_cache")))
        project.reload_inventory = inventory_reloader(project.config, playbook_dir, configured=configured,
                                                      verbosity=options["verbosity"])
        project.inventory.check_limit(options.get("limit"))
    if options["list_hosts"] or list_tasks or list_tags:
        _list(plan, project, options.get("limit"), options["list_hosts"], list_tasks, list_tags, extra_vars)
        return ExitCode.OK
    resumed = None
    if resume_run is not False:
        from runner.cli.resume import load_resume

        resumed = load_resume(plan, project.config, Path(playbook_dir), resume_run, force=force,
                              check=bool(options["check"]))
    return run_plan(plan, compiler, project, options, extra_vars=extra_vars, playbook_dir=playbook_dir,
                    reports=reports, force_handlers=force_handlers or project.config.force_handlers,
                    start_at_task=start_at_task, retry_files=True,
                    step=stepper, resume=resumed)
