"""A task's arguments for one host: its templates rendered, the templates that yield whole mappings of
arguments (``args: '{{ a }}'``, ``add_host: '{{ data }}'``) merged under the arguments written one by one, and
``omit`` dropped. Argument names are kept as written (``set_fact`` renders its own, as Ansible's does).

As in Ansible, a template that yields arguments is judged when the task runs, not when the playbook is read:
its value is only known then, and free-form words that are not a template fail only their task (``ignore_errors``
applies), with Ansible's message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from runner.executor.keywords import TaskFailure
from runner.plan import ARGUMENT_TEMPLATES
from runner.templating import OMIT, Templar, TemplateError, drop_omitted, is_whole_template


def task_arguments(templar: Templar, module: str, args: Mapping[str, Any],
                   expressions: tuple[str, ...] = (), *, untrusting: bool = False) -> dict[str, Any]:
    """``args`` of a plan task rendered for one host; the ones named in ``expressions`` are left as written, for
    the action to evaluate. ``untrusting``: each string a template made is untrusted (``UnsafeText``)."""
    render = templar.template_untrusting_results if untrusting else templar.template
    templates = args.get(ARGUMENT_TEMPLATES) or []
    written = {key: value for key, value in args.items() if key != ARGUMENT_TEMPLATES}
    merged: dict[str, Any] = {}
    for text in templates:
        merged.update(_mapping_from(templar, module, text))
    for key, value in written.items():
        if key in expressions:
            merged[key] = value
            continue
        try:  # the name as written: Ansible renders the values of task arguments, never their names
            merged[key] = render(value)
        except TemplateError as error:  # Ansible 2.19's words, which playbooks match on ("Task failed:")
            raise error.with_context(f"Task failed: Finalization of task args for '{_qualified(module)}' failed: "
                                     f"Error while resolving value for {key!r}") from error.__cause__
    return drop_omitted(merged)


def _mapping_from(templar: Templar, module: str, text: str) -> Mapping[str, Any]:
    if not is_whole_template(text):
        raise TaskFailure(f"Action '{_qualified(module)}' does not support raw params.")
    value = templar.template(text)
    if isinstance(value, str) and value == OMIT:  # omitted: no arguments from it
        return {}
    if not isinstance(value, Mapping):
        raise TaskFailure(f"Finalization of task args for '{_qualified(module)}' failed: Task args must resolve "
                          f"to a 'dict' not '{_type_name(value)}'.")
    return value


def _qualified(module: str) -> str:
    return module if "." in module else f"ansible.builtin.{module}"


def _type_name(value: Any) -> str:
    return {str: "str", int: "int", float: "float", bool: "bool", list: "list"}.get(type(value), type(value).__name__)
