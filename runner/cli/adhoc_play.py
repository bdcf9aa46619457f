"""``provisioning HOSTS -m include_role -a name=ROLE``: an ad-hoc action that runs tasks of its own.

Ansible runs every ad-hoc command as a play of one task; for ``include_role``/``import_role`` (and
``include_tasks``/``import_tasks``) that task stands for many, so ours does the same: a one-task play is compiled
and run by the playbook executor, its results shown by the minimal view as an ad-hoc command shows them. Roles
and task files are found as a playbook beside ``--playbook-dir`` (the working directory by default) finds them.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from runner.cli.project import Project, play_defaults
from runner.errors import OptionError, UserError

# the actions whose task stands for tasks read from files (ansible.builtin./ansible.legacy. names included), and
# meta, whose requests (noop, clear_facts, end_host, ...) are made to a play: as in ansible-core, they show nothing
PLAY_ACTIONS = ("include_role", "import_role", "include_tasks", "import_tasks", "meta")


def is_play_action(module: str) -> bool:
    return module.removeprefix("ansible.builtin.").removeprefix("ansible.legacy.") in PLAY_ACTIONS


def json_arguments(text: str) -> dict[str, Any]:
    """``-a '{...}'``: module arguments given as JSON, as Ansible takes them."""
    try:
        args = json.loads(text)
    except ValueError as exc:
        raise OptionError(f"module arguments look like JSON but do not parse: {exc}") from None
    return args


def play_action_args(module: str, text: str | None, playbook_dir: Path) -> dict[str, Any]:
    """``-a`` as JSON or ``k=v``; ``include_tasks``' free form (``-a tasks.yml``) is its file. A tasks file is
    found beside ``playbook_dir``, where the user is, not beside the throwaway play."""
    from runner.parsing.kv import parse_kv

    text = (text or "").strip()
    if text.startswith("{"):
        args = json_arguments(text)
    elif module.endswith("_tasks") and "=" not in text:
        args = {"file": text}
    elif module.endswith("meta") and "=" not in text:
        args = {"_raw_params": text}
    else:
        args = parse_kv(text) if text else {}
    if module.endswith("_tasks") and isinstance(args.get("file"), str) and "{{" not in args["file"]:
        args["file"] = str(playbook_dir / Path(args["file"]).expanduser())
    return args


def run_as_play(project: Project, pattern: str, module: str, args: dict[str, Any], options: dict[str, Any],
                extra_vars: dict[str, Any], playbook_dir: Path) -> int:
    """Run ``module`` with ``args`` on the hosts ``pattern`` selects as a play of that one task; the exit code."""
    from runner.callbacks.minimal import MinimalDisplay
    from runner.cli.run import run_plan
    from runner.compiler import CompileOptions, Compiler

    play = [{"hosts": pattern, "gather_facts": False, "name": "Ansible Ad-Hoc", "tasks": [{module: args}]}]
    config = project.config
    roles_path = [playbook_dir / "roles", playbook_dir, *project.roles_path]
    compiler = Compiler(CompileOptions(roles_path=roles_path, library=project.library,
                                       collections_path=project.collections_path,
                                       filter_plugins=project.filter_plugins, extra_vars=extra_vars,
                                       module_rejectlist=project.module_rejectlist,
                                       **{**play_defaults(config), "gather_facts": False}))
    # The play is written where nothing of the user's is (and removed after); its tasks' relative files are
    # looked for beside --playbook-dir through the search paths above, as an ad-hoc command's are in Ansible.
    with tempfile.TemporaryDirectory(prefix="provisioning-adhoc-") as folder:
        path = Path(folder) / "adhoc.yml"
        path.write_text(json.dumps(play), encoding="utf-8")
        # Errors carry the throwaway play's places: the message alone says what is wrong.
        try:
            plan = compiler.compile_playbooks([path], [])
            view = MinimalDisplay(one_line=bool(options.get("one_line")), verbosity=options["verbosity"],
                                  nocolor=config.nocolor, force_color=config.force_color, log=project.log)
            return run_plan(plan, compiler, project, options, extra_vars=extra_vars, playbook_dir=playbook_dir,
                            kind="adhoc", summary=view)
        except UserError as exc:
            error = UserError(f"{module}: {exc.message}", hint=exc.hint)
            error.exit_code = exc.exit_code
            raise error from None
