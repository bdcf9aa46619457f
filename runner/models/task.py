"""Tasks and handlers: one module call with the keywords that control it.

A task as written (``copy: {src: a, dest: b}``, ``action: copy src=a``, ``with_items: [...]``) is read into one
shape: ``module`` (short name, ``ansible.builtin.`` dropped), ``module_args`` (a mapping as written, or a
free-form string that the compiler splits into ``k=v`` words once it knows the module), ``loop`` with
``loop_with`` (the lookup of a ``with_<lookup>`` loop, None for ``loop:``). The module's arguments are the
``args:`` keyword's updated by ``module_args``, as Ansible merges them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from functools import partial
from typing import Annotated, Any

from pydantic import BeforeValidator, ConfigDict, Field, ValidationInfo, WithJsonSchema, field_validator
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from runner.errors import SourcePosition, UserError, did_you_mean
from runner.models.action import (
    EXPLICIT_KEYS,
    IMPORT_PLAYBOOK,
    IMPORT_ROLE,
    IMPORT_TASKS,
    INCLUDE_ROLE,
    INCLUDE_TASKS,
    META,
    REMOVED_ACTIONS,
    ActionCall,
    read_action,
)
from runner.models.base import POSITION_KEY, Model, Source
from runner.models.keywords import CommonKeywords, Conditional, Delegatable, Notifiable
from runner.models.types import (
    AnyMapping,
    Bool,
    Conditions,
    Int,
    Number,
    StringList,
    TemplatedVariableName,
    Text,
    VariableName,
    describe,
    expected,
    is_template,
)
from runner.models.validation import validate_within
from runner.parsing.kv import parse_kv
from runner.positions import Positions

LOOP_PREFIX = "with_"

# Ansible's meta actions; the executor says which of them it runs.
META_ACTIONS = frozenset({
    "flush_handlers", "end_play", "end_host", "end_batch", "end_role", "clear_facts", "clear_host_errors", "noop",
    "refresh_inventory", "reset_connection", "role_complete",
})

_ARGS_SCHEMA = {"anyOf": [{"type": "object"}, {"type": "string", "pattern": r"\{\{|\{%"}]}


def _task_args(value: Any) -> Any:
    """``args:``: a mapping, or a template that yields one."""
    if value is None:
        return {}
    if isinstance(value, Mapping) or is_template(value):
        return value
    raise expected("a mapping of module arguments or a template such as '{{ args }}'", value)


class LoopControl(Model):
    KIND = "loop_control"

    loop_var: TemplatedVariableName | None = None
    index_var: TemplatedVariableName | None = None
    label: Text | None = None
    pause: Number | None = None
    extended: Bool | None = None
    extended_allitems: Bool | None = None  # false: ansible_loop without allitems (a long loop's copy per item)
    break_when: Conditions | None = None  # ends the loop after the first item for which every condition holds


class TasksInclude(Model):
    """The arguments of ``include_tasks`` / ``import_tasks``: the file, and for includes the keywords to apply."""

    KIND = "include_tasks"

    file: Text
    apply: AnyMapping | None = None


class RoleInclude(Model):
    """The arguments of ``include_role`` / ``import_role``."""

    KIND = "include_role"

    name: Text
    tasks_from: Text | None = None
    vars_from: Text | None = None
    defaults_from: Text | None = None
    handlers_from: Text | None = None
    public: Bool | None = None
    allow_duplicates: Bool | None = None
    rolespec_validate: Bool | None = None
    rescuable: Bool | None = None  # include_role's only (ansible-core 2.21)
    apply: AnyMapping | None = None

    @field_validator("tasks_from", "vars_from", "defaults_from", "handlers_from", mode="before")
    @classmethod
    def _file_name(cls, value: Any, info: ValidationInfo) -> Any:
        # ansible-core's words for a role file named by something else than a string (a list of names)
        kind = "list" if isinstance(value, list) else "dict" if isinstance(value, dict) else \
            "bool" if isinstance(value, bool) else None
        if kind is not None:
            raise PydanticCustomError("role_file", "Expected a string for {key} but got <class '{kind}'> instead",
                                      {"key": info.field_name, "kind": kind})
        return value


def _task_schema(schema: dict[str, Any]) -> None:
    """As written, a task also has its module's key (any name), ``action``/``local_action`` and ``with_<lookup>``."""
    schema["properties"]["action"] = schema["properties"]["local_action"] = {
        "anyOf": [{"type": "object", "required": ["module"]}, {"type": "string"}]}
    schema["patternProperties"] = {f"^{LOOP_PREFIX}": {}}
    schema["additionalProperties"] = True
    # A mapping with block/rescue/always is a block, never a task with a module called "block".
    schema["not"] = {"anyOf": [{"required": [key]} for key in ("block", "rescue", "always")]}


class Task(CommonKeywords, Conditional, Delegatable, Notifiable):
    model_config = ConfigDict(json_schema_extra=_task_schema)

    KIND = "task"
    DERIVED = Model.DERIVED | {"module", "module_written", "module_args", "module_position", "loop_with", "include",
                               "register_projections"}

    module: SkipJsonSchema[str] = ""
    # The module's name as written: ansible.builtin.X and ansible.legacy.X differ for module_defaults.
    module_written: SkipJsonSchema[str] = ""
    module_args: SkipJsonSchema[Any] = Field(default_factory=dict)
    module_position: SkipJsonSchema[SourcePosition | None] = Field(default=None, exclude=True, repr=False)
    include: SkipJsonSchema[TasksInclude | RoleInclude | None] = Field(
        default=None, description="For include/import_tasks and include/import_role: their arguments, checked")

    args: Annotated[Any, BeforeValidator(_task_args), WithJsonSchema(_ARGS_SCHEMA)] = None
    # "register" itself would shadow ABCMeta.register on the model class.
    register_var: Annotated[VariableName | None, WithJsonSchema(
        {"anyOf": [{"type": "string"}, {"type": "object"}, {"type": "null"}]})] = Field(default=None, alias="register")
    # ``register:`` written as a mapping (ansible-core 2.21's register projections): each variable name and the
    # expression its value is, evaluated when the task has run (``_task.result``, ``_task.loop_result`` ...)
    register_projections: SkipJsonSchema[dict[VariableName, Any] | None] = None
    loop: Annotated[Any, WithJsonSchema({"anyOf": [{"type": "array"}, {"type": "string"}]})] = None
    loop_with: SkipJsonSchema[str | None] = None
    loop_control: LoopControl | None = None
    changed_when: Conditions | None = None
    failed_when: Conditions | None = None
    until: Conditions | None = None
    retries: Int | None = None
    delay: Number | None = None  # seconds; Ansible takes fractions (0.5)
    # async: run in the background on the host for at most this many seconds; poll: how often to check on it
    # (0: do not wait, the task's result names the job for async_status)
    async_seconds: Int | None = Field(default=None, alias="async")
    poll: Int | None = None

    @classmethod
    def known_words(cls) -> set[str]:
        return super().known_words() | set(EXPLICIT_KEYS)

    @classmethod
    def _read_other_keys(cls, data: dict[Any, Any], unknown: list[Any], source: Source) -> dict[Any, Any]:
        loops = [key for key in unknown if isinstance(key, str) and key.startswith(LOOP_PREFIX)
                 and len(key) > len(LOOP_PREFIX)]
        for key in unknown:
            del data[key]
        _read_lookup_loop(data, loops, source)
        call = read_action([key for key in unknown if key not in loops], source, cls)
        if call is not None:
            _reject_internal_arguments(call, source)
            data.update(module=call.name, module_written=call.written, module_args=call.args,
                        module_position=source.at(call.key))
            if call.args_template is not None and data.get("args") is None:
                data["args"] = call.args_template
            if call.local:
                data["delegate_to"] = "localhost"
            if call.name in _SPECIAL_READERS:
                _SPECIAL_READERS[call.name](data, call, source)
        return data

    @classmethod
    def _normalise(cls, data: dict[Any, Any], source: Source) -> dict[Any, Any]:
        if isinstance(data.get("register"), Mapping):
            data["register_projections"] = dict(data.pop("register"))
        if "loop" in data and data.get("loop_with") is None and not _is_loop_value(data["loop"]):
            source.error(f"expected a list or a template such as '{{{{ items }}}}', got {describe(data['loop'])}",
                         "loop", value=True)
            del data["loop"]
        return data


class Handler(Task):
    """A task run when notified, by its name or by one of its ``listen`` topics."""

    KIND = "handler"

    listen: StringList = Field(default_factory=list)


def _is_loop_value(value: Any) -> bool:
    return isinstance(value, list) or is_template(value)


def _read_lookup_loop(data: dict[Any, Any], loops: list[str], source: Source) -> None:
    """``with_items: [...]`` → ``loop`` with ``loop_with = "items"``; a task has at most one loop."""
    written = (["loop"] if "loop" in data else []) + loops
    if len(written) > 1:
        found = " and ".join(f"'{key}'" for key in written)
        source.error(f"a task has one loop; found {found}", written[1])
    if loops and "loop" not in data:
        data["loop"] = source.data[loops[0]]
        data["loop_with"] = loops[0][len(LOOP_PREFIX):]


def _loop_key(source: Source) -> Any:
    return next((key for key in source.data if key == "loop" or str(key).startswith(LOOP_PREFIX)), None)


# Modules whose free-form text is their argument: a word of it is not an argument name (ansible-core's list)
_FREE_FORM_ACTIONS = frozenset({"command", "shell", "script", "raw", "win_command", "win_shell"})


def _reject_internal_arguments(call: ActionCall, source: Source) -> None:
    """Argument names starting ``_ansible_`` are the runner's own (``_ansible_check_mode``...): refused, in
    ansible-core's words, as it refuses them for every action but the free-form ones."""
    if not isinstance(call.args, dict) or call.name in _FREE_FORM_ACTIONS:
        return
    for name in call.args:
        if isinstance(name, str) and name.startswith("_ansible_"):
            source.error(f"Invalid parameter specified beginning with keyword '_ansible_' for action "
                         f"'{call.written or call.name}': '{name}'. The prefix '_ansible_' is reserved for internal "
                         "use only.", call.key)


def _reject_removed(data: dict[Any, Any], call: ActionCall, source: Source) -> None:
    source.error(REMOVED_ACTIONS[call.name], call.key)


def _reject_playbook_import(data: dict[Any, Any], call: ActionCall, source: Source) -> None:
    source.error("'import_playbook' is only valid at the top level of a playbook, in place of a play", call.key)


def _read_include(model: type[TasksInclude | RoleInclude], data: dict[Any, Any], call: ActionCall,
                  source: Source) -> None:
    """Check the arguments of an include or import and keep them, typed, in ``include``."""
    module, args, key = call.name, call.args, call.key
    if module in (IMPORT_TASKS, IMPORT_ROLE) and data.get("loop") is not None:
        replacement = module.replace("import_", "include_")
        source.error(f"'{module}' is static and cannot loop; use '{replacement}' to loop", _loop_key(source))
    if model is TasksInclude and (args is None or args == "" or args == {}):
        # ansible-core's words (scripts match them), at the task as it places them
        source.error(f"No file specified for {call.written or module}")
        return
    if isinstance(args, str):
        args = _free_form_include(model, args, source, key)
        if args is None:
            return
    if model is RoleInclude and isinstance(args, dict) and "role" in args and "name" not in args:
        args = _role_as_name(args)
    include = validate_within(model, args, source.context, where=source.at(key, value=True))
    if include is None:
        return
    if getattr(include, "rescuable", None) is not None and module.startswith("import_"):
        # ansible-core's words: an import's errors are the playbook's, never the task's
        source.error(f"Invalid options for {module}: rescuable", key, value=True)
    if include.apply is not None and module.startswith("import_"):
        # ansible-core's words (scripts match them), then why
        source.error(f"Invalid options for {module}: apply", key, value=True,
                     hint=f"'apply' is only valid for '{module.replace('import_', 'include_')}'; keywords on "
                          f"'{module}' already apply to every imported task")
    data["include"] = include


def _role_as_name(args: dict[Any, Any]) -> dict[Any, Any]:
    """``include_role: {role: x}`` is Ansible's other spelling of ``name``; the mapping keeps its positions."""
    renamed = copy.copy(args)  # the loader's mapping type (PositionedDict), which carries where each key was written
    renamed["name"] = renamed.pop("role")
    positions = getattr(args, "lc", None)
    if isinstance(positions, Positions):
        moved = Positions(positions.line, positions.col)
        moved.keys, moved.values, moved.items = dict(positions.keys), dict(positions.values), positions.items
        for where in (moved.keys, moved.values):
            if "role" in where:
                where["name"] = where.pop("role")
        renamed.lc = moved  # type: ignore[attr-defined]  # a PositionedDict, as its positions say
    return renamed


def _free_form_include(model: type[Model], text: str, source: Source, key: Any) -> dict[Any, Any] | None:
    """``include_tasks: other.yml`` names the file; ``import_role: name=common`` is ``k=v`` words."""
    written_at = {POSITION_KEY: source.at(key, value=True)}
    if model is TasksInclude:
        return {"file": text.strip(), **written_at}
    try:
        return {**parse_kv(text), **written_at}
    except UserError as exc:
        source.error(exc.message, key, value=True)
        return None


def _read_meta(data: dict[Any, Any], call: ActionCall, source: Source) -> None:
    args = call.args
    if isinstance(args, Mapping):
        args = args.get("_raw_params", args.get("free_form"))
    if not isinstance(args, str) or args.strip() not in META_ACTIONS:
        source.error(f"expected a meta action ({', '.join(sorted(META_ACTIONS))}), got {describe(args)}",
                     call.key, value=True,
                     hint=did_you_mean(str(args), META_ACTIONS) if isinstance(args, str) else None)
        return
    data["module_args"] = args.strip()


# action name → what reads its task beyond the common keywords
_SPECIAL_READERS: dict[str, Callable[[dict[Any, Any], ActionCall, Source], None]] = {
    **dict.fromkeys(REMOVED_ACTIONS, _reject_removed),
    IMPORT_PLAYBOOK: _reject_playbook_import,
    INCLUDE_TASKS: partial(_read_include, TasksInclude),
    IMPORT_TASKS: partial(_read_include, TasksInclude),
    INCLUDE_ROLE: partial(_read_include, RoleInclude),
    IMPORT_ROLE: partial(_read_include, RoleInclude),
    META: _read_meta,
}
