"""``set_fact``: variables of the host for its later tasks, at set_fact's precedence."""

from __future__ import annotations

from typing import Any

from runner.actions.context import ActionContext
from runner.templating.filters.core import to_bool


async def run_set_fact(ctx: ActionContext) -> dict[str, Any]:
    # Values as given: ansible-core 2.19 keeps "yes" a string (and a YAML yes a boolean), k=v values included
    # Names are rendered here, not with the other task arguments: only set_fact names its values by template
    values = {ctx.templar.template(k): v for k, v in ctx.args.items() if k != "cacheable"}
    if not values:
        return {"failed": True, "msg": "No key/value pairs provided, at least one is required for this action"}
    for key in values:
        problem = variable_name_problem(key)
        if problem:
            return {"failed": True, "msg": problem}
    ctx.state.set_vars(ctx.host, values)
    if to_bool(ctx.args.get("cacheable", False)):
        ctx.state.cache_vars(ctx.host, values)  # kept by the fact cache for later runs
    return {"changed": False, "ansible_facts": values}


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
