"""The module_defaults of the module chosen per host to do a task's work (``service``: systemd or sysvinit;
``package``: apt, dnf, ...), merged under the task's arguments where it runs, as ansible-core's service and
package actions merge them (``_apply_action_arg_defaults``): only the chosen module's, only for the arguments the
task does not give, templated then. The module is named by ``use``, else (package) the variable
``ansible_package_use``, else the host's fact (``service_mgr``, ``pkg_mgr``; the delegated host's when the task
is delegated), else that fact as the setup module finds it on the host now, as ansible-core's actions gather it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from runner.errors import UserError
from runner.executor.keywords import TaskFailure
from runner.executor.task_args import task_arguments
from runner.module_index import ModuleIndex, ModuleInfo
from runner.templating import Templar

# Runs the setup module on the task's host with these arguments, and gives its result.
RunSetup = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


async def with_chosen_module(
    index: ModuleIndex,
    info: ModuleInfo,
    candidates: Mapping[str, Mapping[str, Any]],
    args: dict[str, Any],
    templar: Templar,
    facts_of: Mapping[str, Any],
    variables: Mapping[str, Any],
    run_setup: RunSetup,
) -> dict[str, Any]:
    """``args`` for this host: the module chosen by a variable named as ``use`` (the host would not see the
    variable), and that module's defaults (``candidates``: by module, as the compiler found them) under them.
    ``facts_of``: the variables of the host whose facts decide (the task's, or the delegated host's). The host
    is asked for its fact only when some candidate has defaults; otherwise the module finds its own there."""
    chosen, by_variable = await chosen_module(info, args, facts_of, variables, run_setup if candidates else None)
    unknown = getattr(info.python, "UNKNOWN_CHOICE", None)
    if chosen is not None and unknown and not _found(index, chosen):
        raise TaskFailure(unknown.format(chosen))
    if by_variable:
        args = {**args, "use": chosen}
    defaults = candidates.get(chosen or "")
    if not defaults:
        return args
    missing = {key: value for key, value in defaults.items() if key not in args}  # the task's own are kept
    rendered = task_arguments(templar, chosen or "", missing)
    return {**{key: value for key, value in rendered.items() if key not in args}, **args}


async def chosen_module(
    info: ModuleInfo,
    args: Mapping[str, Any],
    facts_of: Mapping[str, Any],
    variables: Mapping[str, Any],
    run_setup: RunSetup | None,
) -> tuple[str | None, bool]:
    """The module that does ``info``'s work for this host, as ansible-core's action picks it (None when none is
    found, or when finding it would take asking the host and ``run_setup`` is None), and whether a variable
    chose it."""
    python = info.python
    use = str(args.get("use") or "auto")
    if use != "auto":
        return use.lower(), False
    by_variable = getattr(python, "CHOSEN_BY_VARIABLE", None)
    if by_variable and variables.get(by_variable):
        return str(variables[by_variable]), True
    fact = str(getattr(python, "CHOSEN_BY_FACT", ""))
    facts = facts_of.get("ansible_facts")
    known = facts.get(fact) if fact and isinstance(facts, Mapping) else None
    if known:
        return str(known), False
    if not fact or run_setup is None:
        return None, False
    found = await run_setup({"gather_subset": ["!all"], "filter": [f"ansible_{fact}"]})
    gathered = found.get("ansible_facts")
    value = gathered.get(f"ansible_{fact}") if isinstance(gathered, Mapping) else None
    return (str(value) if value else None), False


def _found(index: ModuleIndex, name: str) -> bool:
    try:
        return index.find(name) is not None
    except UserError:  # removed or routed in a loop: not a module that can run
        return False
