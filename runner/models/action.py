"""Which module a task calls, and with what arguments (Ansible's ``ModuleArgsParser``).

A task names its module as the one key that is not a keyword (``copy: {src: a, dest: b}``,
``shell: uptime``), or through ``action:`` / ``local_action:``. Whether a key names a module is the caller's
answer (``is_module``, passed in the validation context), so this stays independent of the module library.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from runner.errors import UserError, did_you_mean
from runner.models.base import Model, Source
from runner.models.types import describe, is_template
from runner.parsing.kv import parse_kv

# Spellings of a builtin module that name the same module as its short name.
BUILTIN_PREFIXES = ("ansible.builtin.", "ansible.legacy.", "provisioning.builtin.")

# Actions of the language itself, handled by the compiler and executor rather than by a module.
INCLUDE_TASKS = "include_tasks"
IMPORT_TASKS = "import_tasks"
INCLUDE_ROLE = "include_role"
IMPORT_ROLE = "import_role"
INCLUDE_VARS = "include_vars"
IMPORT_PLAYBOOK = "import_playbook"
META = "meta"
SPECIAL_ACTIONS = frozenset(
    {INCLUDE_TASKS, IMPORT_TASKS, INCLUDE_ROLE, IMPORT_ROLE, INCLUDE_VARS, IMPORT_PLAYBOOK, META}
)
# Removed from Ansible, recognised so the error says what to write instead.
REMOVED_ACTIONS = {"include": "'include' was removed from the language; use 'include_tasks' (dynamic) or "
                              "'import_tasks' (static)"}

EXPLICIT_KEYS = ("action", "local_action")

IsModule = Callable[[str], bool]


def canonical_action(name: str) -> str:
    """``ansible.builtin.copy`` → ``copy``; other names unchanged."""
    for prefix in BUILTIN_PREFIXES:
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def any_module(_name: str) -> bool:
    """The default answer when no module library is at hand: any key that is not a keyword names a module."""
    return True


@dataclass
class ActionCall:
    name: str  # canonical: no ansible.builtin. prefix
    args: Any  # a mapping as written (with positions), or a free-form string for later k=v splitting
    key: Any  # the key it was written under: the module's name, 'action' or 'local_action'
    local: bool = False  # local_action: runs on the controller (delegate_to: localhost)
    args_template: str | None = None  # action: {module: x, args: "{{ a_mapping }}"}
    written: str = ""  # the module's name as written (ansible.legacy.debug, ansible.builtin.ping, ping)


def is_action(name: Any, is_module: IsModule) -> bool:
    if not isinstance(name, str):
        return False
    short = canonical_action(name)
    return short in SPECIAL_ACTIONS or short in REMOVED_ACTIONS or is_module(short)


def read_action(unknown: list[Any], source: Source, model: type[Model]) -> ActionCall | None:
    """The one module call among the keys that are not keywords; every other key is reported as a mistake."""
    kind = model.KIND
    is_module: IsModule = source.context.get("is_module") or any_module
    explicit = [key for key in EXPLICIT_KEYS if key in unknown]
    modules = [key for key in unknown if key not in explicit and is_action(key, is_module)]
    strays = [key for key in unknown if key not in explicit and key not in modules]
    calls = explicit + modules
    unresolved = _report_strays(strays, bool(calls), source, model)
    if len(calls) > 1:
        found = " and ".join(f"'{key}'" for key in calls)
        source.error(f"a {kind} calls exactly one module; found {found}", calls[1],
                     hint="split them into separate tasks")
    if not calls:
        if not unresolved:
            source.error(f"no module/action detected in {kind}", hint="add one key naming a module, such as "
                                                                      "'command: uptime'")
        return None
    key = calls[0]
    value = source.data[key]
    if key in EXPLICIT_KEYS:
        call = _read_explicit(key, value, source, is_module)
    else:
        call = ActionCall(canonical_action(key), value, key, written=str(key))
    if call is not None and not _args_shape_ok(call, source):
        return None
    return call


def _report_strays(strays: list[Any], have_call: bool, source: Source, model: type[Model]) -> bool:
    """Report keys that are neither keywords nor modules; True when one was reported as an unknown module."""
    unresolved = False
    for key in strays:
        hint = did_you_mean(str(key), model.known_words())
        if hint or have_call:
            source.error(model.unknown_message(key), key, hint=hint)
        else:
            unresolved = True
            source.error(f"couldn't resolve module/action '{key}'", key,
                         hint="it is neither a task keyword nor a known module")
    return unresolved


def _read_explicit(key: str, value: Any, source: Source, is_module: IsModule) -> ActionCall | None:
    """``action: copy src=a dest=b`` or ``action: {module: copy, src: a}``."""
    args: Any
    args_template: str | None = None
    if isinstance(value, str) and value.strip():
        name, args = _split_module_name(value.strip())
    elif isinstance(value, Mapping) and isinstance(value.get("module"), str):
        args = {arg: arg_value for arg, arg_value in value.items() if arg not in ("module", "args")}
        # action: {module: "copy src=a", ...}: the module's k=v words win over the discrete arguments
        name, words = _split_module_name(value["module"].strip())
        if words:
            try:
                args.update(parse_kv(words, check_raw=False, keep_raw=True))
            except UserError as exc:
                source.error(exc.message, key, value=True)
                return None
        inner = value.get("args")
        if isinstance(inner, str) and not is_template(inner):  # key=value words, as Ansible reads them
            try:
                inner = parse_kv(inner)
            except UserError as exc:
                source.error(exc.message, key, value=True)
                return None
        if isinstance(inner, Mapping):  # action: {module: x, args: {...}}: those win over the discrete ones
            args.update(inner)
        elif is_template(inner):  # a template that yields the arguments, read where the task runs
            args_template = inner
        elif inner is not None:
            source.error("expected the arguments under 'args' as a mapping, key=value words or a template, got "
                         f"{describe(inner)}", key, value=True)
            return None
    else:
        source.error(f"expected a module and its arguments ('copy src=a dest=b' or a mapping with 'module'), "
                     f"got {describe(value)}", key, value=True)
        return None
    if not is_template(name) and not is_action(name, is_module):  # a template: the compiler renders the name
        source.error(f"couldn't resolve module/action '{name}'", key, value=True)
        return None
    return ActionCall(canonical_action(name), args, key, local=key == "local_action", args_template=args_template,
                      written=name)


def _split_module_name(text: str) -> tuple[str, str]:
    """``"copy src=a"`` → (``copy``, ``src=a``); a templated name keeps its spaces: ``"{{ m }} msg=hi"`` →
    (``{{ m }}``, ``msg=hi``)."""
    end = 0
    while text.startswith("{{", end):
        close = text.find("}}", end)
        if close < 0:
            break
        end = close + 2
    name, _, args = text[end:].partition(" ")
    return text[:end] + name, args.strip()


def _args_shape_ok(call: ActionCall, source: Source) -> bool:
    if call.args is None:
        call.args = {}
    if isinstance(call.args, Mapping | str):
        return True
    source.error(f"expected the arguments of '{call.name}' as a mapping or a string of key=value words, "
                 f"got {describe(call.args)}", call.key, value=True)
    return False
