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

from runner.executor.task_args import task_arguments
from runner.module_index import ModuleInfo
from runner.templating import Templar

# Runs the setup module on the task's host with these arguments, and gives its result.
RunSetup = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


async def with_chosen_defaults(
    info: ModuleInfo,
    candidates: Mapping[str, Mapping[str, Any]],
    args: dict[str, Any],
    templar: Templar,
    facts_of: Mapping[str, Any],
    variables: Mapping[str, Any],
    run_setup: RunSetup,
) -> dict[str, Any]:
    """``args`` with the defaults (``candidates``: by module, as the compiler found them) of the module chosen
    for this host under them. ``facts_of``: the variables of the host whose facts decide (the task's, or the
    delegated host's)."""
    chosen = await chosen_module(info, args, facts_of, variables, run_setup)
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
    run_setup: RunSetup,
) -> str | None:
    """The module that does ``info``'s work for this host, as ansible-core's action picks it; None when none is
    found."""
    python = info.python
    use = str(args.get("use") or "auto")
    if use != "auto":
        return use.lower()
    by_variable = getattr(python, "CHOSEN_BY_VARIABLE", None)
    if by_variable and variables.get(by_variable):
        return str(variables[by_variable])
    fact = str(getattr(python, "CHOSEN_BY_FACT", ""))
    if not fact:
        return None
    facts = facts_of.get("ansible_facts")
    known = facts.get(fact) if isinstance(facts, Mapping) else None
    if known:
        return str(known)
    found = await run_setup({"gather_subset": ["!all"], "filter": [f"ansible_{fact}"]})
    gathered = found.get("ansible_facts")
    value = gathered.get(f"ansible_{fact}") if isinstance(gathered, Mapping) else None
    return str(value) if value else None
