"""A task's module arguments from what it wrote, for the module they go to: the compiler reads them when it knows
the module, the worker when only the run does (a module named by a template of host variables)."""

from __future__ import annotations

from typing import Any

from runner.parsing.kv import RAW_PARAMS, parse_kv
from runner.plan.model import ARGUMENT_TEMPLATES


def module_arguments(raw: Any, task_args: Any, free_form: str | None) -> dict[str, Any]:
    """The arguments of ``copy: src=a dest=b`` (``raw``, a mapping or k=v text) with the task's ``args:``
    (``task_args``, a mapping or a template that yields one) under them, as Ansible orders them; templates that
    yield arguments only the run can read go under ``ARGUMENT_TEMPLATES``, lowest priority first. ``free_form``:
    the module's free-form parameter (``cmd``), None when it takes none. A UserError for bad k=v text."""
    templates = [task_args] if isinstance(task_args, str) else []
    if isinstance(raw, str):
        # Only modules whose free form is a command line (command, shell, raw, script) read k=v words that are
        # not their own options as part of it; include_vars' ``dir=vars`` is an option, as in ansible-core
        command_line = free_form == RAW_PARAMS
        args = parse_kv(raw, check_raw=command_line, keep_raw=not command_line)
        if free_form is None and RAW_PARAMS in args:
            templates.append(args.pop(RAW_PARAMS))
    else:
        args = dict(raw or {})
        if free_form is None and isinstance(args.get(RAW_PARAMS), str):  # "{{ vp }}" among a mapping's k=v words
            templates.append(args.pop(RAW_PARAMS))
    if isinstance(task_args, dict):
        args = {**task_args, **args}
    if templates:
        args[ARGUMENT_TEMPLATES] = templates
    if RAW_PARAMS in args and free_form and free_form != RAW_PARAMS:
        args[free_form] = args.pop(RAW_PARAMS)
    return args
