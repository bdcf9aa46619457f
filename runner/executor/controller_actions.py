"""Actions that run on the controller, inside the playbook run: they read or change the run's own state.

``debug``, ``set_fact``, ``assert``, ``fail``, ``include_vars``, ``add_host``, ``group_by`` and ``pause`` never
touch a host. Their documentation and argument specs are module files in ``modules/`` (marked
``RUNS_ON = "controller"``) so ``provisioning-doc`` and the compiler treat them like any module; their work is
here, because it needs the task's variables and the run's state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from modules._utils import ArgumentError, validate_arguments
from runner.errors import UserError
from runner.templating.errors import TemplateError

if TYPE_CHECKING:
    from runner.executor.playbook_worker import PlaybookWorker
    from runner.plan import PlanTask
    from runner.templating import Templar


@dataclass
class ActionRequest:
    host: str
    args: dict[str, Any]
    templar: Templar
    check: bool
    diff: bool
    worker: PlaybookWorker
    node: PlanTask
    verbosity: int = 0

    def validated(self, module: str) -> dict[str, Any]:
        info = self.worker.index.get(module)
        try:
            return validate_arguments(info.argument_spec, self.args, info.spec_rules)
        except ArgumentError as exc:
            raise ActionFailed(str(exc)) from None


class ActionFailed(Exception):
    pass


Action = Callable[[ActionRequest], Awaitable[dict[str, Any]]]


async def debug(request: ActionRequest) -> dict[str, Any]:
    params = request.validated("debug")
    if request.verbosity < int(params["verbosity"]):
        return {"changed": False, "skipped": True, "skipped_reason": "Verbosity threshold not met."}
    if params.get("var") is not None:
        name = str(params["var"])
        try:
            value = request.templar.template("{{ " + name + " }}")
        except TemplateError as error:
            if not error.undefined:  # a failing filter or lookup fails the task, as in Ansible
                raise
            value = "VARIABLE IS NOT DEFINED!"  # an undefined variable is shown as such
        return {"changed": False, name: value}
    return {"changed": False, "msg": params["msg"]}


async def set_fact(request: ActionRequest) -> dict[str, Any]:
    values = {k: _fact_value(v) for k, v in request.args.items() if k != "cacheable"}
    if not values:
        return {"failed": True, "msg": "No key/value pairs provided, at least one is required for this action"}
    for key in values:
        problem = variable_name_problem(key)
        if problem:
            return {"failed": True, "msg": problem}
    request.worker.host_runtime(request.host).set_vars(values)
    return {"changed": False, "ansible_facts": values, "_vars": {request.host: values}, "_set_fact": True}


# Names Jinja2 reads as something else than a variable (Ansible refuses them as variable names too)
JINJA_KEYWORDS = frozenset({"true", "false", "none", "True", "False", "None", "not"})


def variable_name_problem(name: Any) -> str | None:
    """Why ``name`` cannot name a variable, in Ansible's words, or None when it can."""
    if isinstance(name, str) and name.isidentifier() and name.isascii() and name not in JINJA_KEYWORDS:
        return None
    described = f"name {str(name)!r}" if isinstance(name, (str, int, float, bool, type(None))) else "name"
    if not isinstance(name, str):
        described += f" of type {type(name).__name__!r}"
    return (f"Invalid variable {described}. Variable names must be strings starting with a letter or underscore "
            "character, and contain only letters, numbers and underscores.")


def _fact_value(value: Any) -> Any:
    """Ansible's set_fact turns the strings true/false/yes/no (any case) into booleans, so ``flag=yes`` and
    ``flag: "no"`` give a boolean that ``when: flag`` reads as such."""
    if isinstance(value, str) and value.lower() in ("true", "false", "yes", "no"):
        return value.lower() in ("true", "yes")
    return value


async def assert_(request: ActionRequest) -> dict[str, Any]:
    params = request.validated("assert")
    # One condition given as a string stays whole: the list type would split it at commas ("x in [1, 2]").
    that = request.args.get("that")
    conditions = [that] if isinstance(that, str) else params["that"]
    for condition in conditions:
        if not request.templar.evaluate_conditional(condition):
            message = params.get("fail_msg") or params.get("msg") or "Assertion failed"
            return {"failed": True, "changed": False, "assertion": condition, "evaluated_to": False,
                    "msg": message}
    if params["quiet"]:
        return {"changed": False, "msg": "All assertions passed", "_quiet": True}
    return {"changed": False, "msg": params.get("success_msg") or "All assertions passed"}


async def fail(request: ActionRequest) -> dict[str, Any]:
    params = request.validated("fail")
    return {"failed": True, "changed": False, "msg": params["msg"]}


async def pause(request: ActionRequest) -> dict[str, Any]:
    params = request.validated("pause")
    seconds = float(params.get("seconds") or 0) + 60 * float(params.get("minutes") or 0)
    if not request.check or seconds:
        await asyncio.sleep(seconds)
    return {"changed": False, "delta": seconds, "echo": True, "stdout": f"Paused for {seconds} seconds",
            "user_input": ""}


async def include_vars(request: ActionRequest) -> dict[str, Any]:
    from runner.loader.yaml import load_yaml_file

    params = request.validated("include_vars")
    source = params.get("file") or params.get("_raw_params") or params.get("dir")
    if not source:
        return {"failed": True, "msg": "include_vars needs a file or dir"}
    paths = _candidate_paths(request, str(source), "vars")
    files: list[Path] = []
    for candidate in paths:
        if candidate.is_file():
            files = [candidate]
            break
        if candidate.is_dir():
            suffixes = params.get("extensions") or ["yaml", "yml", "json"]
            files = sorted(p for p in candidate.rglob("*") if p.is_file() and p.suffix.lstrip(".") in suffixes)
            break
    else:
        return {"failed": True, "msg": f"Could not find or access '{source}' (searched: "
                                       f"{', '.join(str(p) for p in paths)})"}
    values: dict[str, Any] = {}
    for path in files:
        try:
            data = load_yaml_file(path) or {}
        except UserError as exc:
            return {"failed": True, "msg": exc.render(with_excerpt=False)}
        if not isinstance(data, Mapping):
            return {"failed": True, "msg": f"{path} must be a mapping of variables"}
        values.update(data)
    if params.get("name"):
        values = {params["name"]: values}
    # Its own level, below set_fact's: a set_fact value keeps winning over an include_vars value set later.
    request.worker.host_runtime(request.host).include_vars(values)
    return {"changed": False, "ansible_included_var_files": [str(p) for p in files],
            "ansible_facts": values, "_include_vars": {request.host: values}, "_set_fact": True}


def _candidate_paths(request: ActionRequest, source: str, subdir: str) -> list[Path]:
    path = Path(source)
    if path.is_absolute():
        return [path]
    candidates = []
    for base in request.worker._search_paths(request.node):
        candidates += [base / subdir / path, base / path]
    return candidates


async def add_host(request: ActionRequest) -> dict[str, Any]:
    args = dict(request.args)
    name = args.pop("name", None) or args.pop("hostname", None) or args.pop("host", None)
    if not name:
        return {"failed": True, "msg": "add_host needs a name"}
    groups = args.pop("groups", None) or args.pop("group", None) or args.pop("groupname", None) or []
    if isinstance(groups, str):
        groups = [g.strip() for g in groups.split(",") if g.strip()]
    entry = {"name": str(name), "groups": list(groups), "vars": args}
    # changed when the inventory gains the host or a group membership, as in Ansible (vars alone do not count)
    membership = request.worker.inventory.groups_dict()
    changed = request.worker.inventory.get_host(str(name)) is None or any(
        str(name) not in membership.get(group, ()) for group in groups)
    request.worker.update({"add_host": [entry]})
    return {"changed": changed, "add_host": {"host_name": str(name), "groups": list(groups), "host_vars": args},
            "_add_host": [entry]}


async def group_by(request: ActionRequest) -> dict[str, Any]:
    params = request.validated("group_by")
    group = str(params["key"]).replace(" ", "-")  # as Ansible names it: spaces become dashes
    parents = params.get("parents") or ["all"]
    entry = {"group": group, "host": request.host, "parents": parents}
    changed = request.host not in request.worker.inventory.groups_dict().get(group, ())  # as in Ansible
    request.worker.update({"add_group": [entry]})
    return {"changed": changed, "add_group": group, "parent_groups": parents, "_add_group": [entry]}


def join_group(inventory: Any, entry: Mapping[str, Any]) -> None:
    """Apply a group_by result to an inventory (the controller's and each worker's): the group, made a child
    of its parents, and the host in it."""
    inventory.add_group(entry["group"])
    for parent in entry.get("parents") or ():
        if parent != "all":
            inventory.add_child(parent, entry["group"])
    inventory.add_host(entry["host"], [entry["group"]])


async def meta(request: ActionRequest) -> dict[str, Any]:
    return {"changed": False, "_meta": request.args.get("_raw_params") or request.args.get("free_form")}


async def server(request: ActionRequest) -> dict[str, Any]:
    # Providers (boto3, requests, the infra models) load only when a play creates or deletes a server.
    from runner.providers.action import server as provider_server

    return await provider_server(request)


CONTROLLER_ACTIONS: dict[str, Action] = {
    "debug": debug,
    "set_fact": set_fact,
    "assert": assert_,
    "fail": fail,
    "pause": pause,
    "include_vars": include_vars,
    "add_host": add_host,
    "group_by": group_by,
    "meta": meta,
    "server": server,
}

