"""Value types of the playbook language, read the way Ansible reads them.

Each type accepts what Ansible accepts as written in YAML (``yes`` for a boolean, ``"a,b"`` for tags, one string
for a list of conditions) and normalises it, so later stages see one shape. A value holding Jinja2 (``{{`` or
``{%``) stays a string: it is templated per host later, and checked then.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Annotated, Any

from pydantic import BeforeValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

# Ansible's strict boolean reading for keywords (ansible.module_utils.parsing.convert_bool), any case.
TRUE_WORDS = frozenset({"yes", "on", "true", "y", "t", "1"})
FALSE_WORDS = frozenset({"no", "off", "false", "n", "f", "0"})

TEMPLATE_MARKERS = ("{{", "{%")


def is_template(value: Any) -> bool:
    return isinstance(value, str) and any(marker in value for marker in TEMPLATE_MARKERS)


def describe(value: Any) -> str:
    """How a value is named in an error message: the value itself for scalars, its kind for containers."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    return str(value)


def expected(what: str, value: Any) -> PydanticCustomError:
    """The error for a value of the wrong shape: 'expected <what>, got <value>'."""
    return PydanticCustomError("expected", "expected {what}, got {got}", {"what": what, "got": describe(value)})


def _bool(value: Any) -> bool | str:
    return value if is_template(value) else to_bool(value)


def to_bool(value: Any) -> bool:
    """A boolean as Ansible reads one where a boolean is expected: yes/no/on/off/true/false/1/0, any case."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str):
        word = value.strip().lower()
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    raise expected("a boolean (true/false)", value)


def _text(value: Any) -> str:
    # Ansible turns numbers into text for string keywords (``name: 2024``, ``become_user: 1000``).
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    raise expected("a string", value)


def _int(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        if is_template(value):
            return value
        if value.strip().isdigit():
            return int(value)
    raise expected("an integer", value)


def _number(value: Any) -> float | int | str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        if is_template(value):
            return value
        try:
            return float(value)
        except ValueError:
            pass
    raise expected("a number", value)


def _percent(value: Any) -> float | str:
    """``max_fail_percentage``: a number from 0 to 100, or ``"30%"``."""
    number: Any = value
    if isinstance(value, str):
        if is_template(value):
            return value
        number = value.strip().removesuffix("%")
        try:
            number = float(number)
        except ValueError:
            raise expected("a percentage from 0 to 100", value) from None
    if isinstance(number, bool) or not isinstance(number, int | float) or not 0 <= number <= 100:
        raise expected("a percentage from 0 to 100", value)
    return float(number)


def _batch(value: Any) -> int | str:
    """One ``serial`` step: a host count, ``"N%"`` of the play's hosts, or a template."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str):
        text = value.strip()
        if is_template(text):
            return text
        if text.isdigit():
            return int(text)
        if text.endswith("%") and text[:-1].strip().replace(".", "", 1).isdigit():
            return text
    raise expected("a number of hosts or a percentage such as '30%'", value)


def _listed(value: Any) -> list[Any]:
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def _comma_separated(value: Any) -> list[Any]:
    """A list, or a comma-separated string (``tags: web,db``)."""
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return _listed(value)


def _condition(value: Any) -> str | bool:
    if isinstance(value, str | bool):
        return value
    raise expected("a condition (a Jinja2 expression or true/false)", value)


def _hosts(value: Any) -> list[Any]:
    # A blank string is as empty as an empty list to Ansible (``hosts: ','`` is not: it selects every host).
    items = [] if isinstance(value, str) and not value.strip() else _listed(value)
    if not items:
        raise PydanticCustomError("hosts", "Hosts list cannot be empty. Please check your playbook")
    return items


def check_variable_name(name: Any) -> str:
    if not isinstance(name, str) or not name.isidentifier():
        # Ansible's words (playbooks and its tests match on "Invalid variable name").
        of_type = "" if isinstance(name, str) else f" of type '{type(name).__name__}'"
        raise PydanticCustomError("variable_name", "Invalid variable name '{name}'{of_type}",
                                  {"name": name, "of_type": of_type})
    return name


def _variable_name_or_template(value: Any) -> str:
    return value if is_template(value) else check_variable_name(value)


def _variables(value: Any) -> dict[Any, Any]:
    """``vars``: a mapping (Ansible also still reads a list of mappings, merged in order)."""
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value  # type: ignore[return-value]  # kept as read, so a bad name can be pointed at
    if isinstance(value, list) and all(isinstance(part, Mapping) for part in value):
        merged: dict[Any, Any] = {}
        for part in value:
            merged.update(part)
        return merged
    raise expected("a mapping of variable names to values", value)


def _layered(value: Any) -> Any:
    if value is None:
        return {}
    if isinstance(value, Mapping) or is_template(value):
        return value
    if isinstance(value, list) and all(isinstance(item, Mapping) or is_template(item) for item in value):
        return value
    raise expected("a mapping, a list of mappings or a template", value)


def _mapping(value: Any) -> Mapping[Any, Any]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value
    raise expected("a mapping", value)


_TEMPLATE_SCHEMA = {"type": "string", "pattern": r"\{\{|\{%"}
_TEXT_SCHEMA = {"type": ["string", "number"]}
_CONDITION_SCHEMA = {"type": ["string", "boolean"]}

Bool = Annotated[
    bool | str,
    BeforeValidator(_bool),
    WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "string"}]}),
]


def _run_time_bool(value: Any) -> bool | str:
    """A word that is no boolean stays as written: the keyword is judged when the task runs, as in Ansible,
    where it fails that task alone (``ignore_errors`` applies) rather than the whole playbook."""
    if isinstance(value, str):
        try:
            return to_bool(value)
        except PydanticCustomError:
            return value
    return _bool(value)


# check_mode and diff: read for each call, in Ansible's words when they cannot be (runner.executor.keywords).
RunTimeBool = Annotated[
    bool | str,
    BeforeValidator(_run_time_bool),
    WithJsonSchema({"anyOf": [{"type": "boolean"}, {"type": "string"}]}),
]
Text = Annotated[str, BeforeValidator(_text), WithJsonSchema(_TEXT_SCHEMA)]
Int = Annotated[
    int | str,
    BeforeValidator(_int),
    WithJsonSchema({"anyOf": [{"type": "integer"}, {"type": "string", "pattern": r"^\s*\d+\s*$|\{\{|\{%"}]}),
]
Number = Annotated[
    float | int | str,
    BeforeValidator(_number),
    WithJsonSchema({"anyOf": [{"type": "number"},
                              {"type": "string", "pattern": r"^\s*[-+]?\d+(\.\d*)?\s*$|\{\{|\{%"}]}),
]
Percent = Annotated[
    float | str,
    BeforeValidator(_percent),
    WithJsonSchema({"anyOf": [{"type": "number", "minimum": 0, "maximum": 100}, {"type": "string"}]}),
]


def one_of(words: tuple[str, ...]) -> str:
    """``'a', 'b' or 'c'``, as an error message lists what it expected."""
    quoted = [f"'{word}'" for word in words]
    return " or ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


def choice(*words: str) -> Callable[[Any], str]:
    """A validator: one of ``words``, or a template that renders to one (checked when it is rendered). A partial
    of a named function, so the models' cached schemas (runner.util.model_cache) can pickle it."""
    return functools.partial(_one_of_words, words)


def _one_of_words(words: tuple[str, ...], value: Any) -> str:
    if isinstance(value, str) and (value in words or is_template(value)):
        return value
    raise expected(one_of(words), value)


def choice_schema(*words: str) -> dict[str, Any]:
    return {"anyOf": [{"enum": list(words)}, _TEMPLATE_SCHEMA]}


def _one_or_many(item: Any, item_schema: dict[str, Any], *, commas: bool = False) -> Any:
    """A list of ``item``, also written as one item (or, with ``commas``, as ``"a,b"``)."""
    return Annotated[
        list[item],
        BeforeValidator(_comma_separated if commas else _listed),
        WithJsonSchema({"anyOf": [item_schema, {"type": "array", "items": item_schema}]}),
    ]


Batch = Annotated[int | str, BeforeValidator(_batch)]
# Any, not str: a condition marked !unsafe keeps its mark (pydantic would make it a plain str), so that it is
# refused when evaluated, as Ansible refuses an untrusted conditional
Condition = Annotated[Any, BeforeValidator(_condition), WithJsonSchema(_CONDITION_SCHEMA)]

Serial = _one_or_many(Batch, {"type": ["integer", "string"]})
Conditions = _one_or_many(Condition, _CONDITION_SCHEMA)
StringList = _one_or_many(Text, _TEXT_SCHEMA)
CommaList = _one_or_many(Text, _TEXT_SCHEMA, commas=True)
Hosts = Annotated[
    list[Text],
    BeforeValidator(_hosts),
    WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "minItems": 1}]}),
]
AnyMapping = Annotated[dict[str, Any], BeforeValidator(_mapping), WithJsonSchema({"type": "object"})]
VariableName = Annotated[str, BeforeValidator(check_variable_name), WithJsonSchema({"type": "string"})]
# A variable name, or a template that renders to one (``loop_var: "{{ name }}"``), rendered when the task runs.
TemplatedVariableName = Annotated[
    str, BeforeValidator(_variable_name_or_template), WithJsonSchema({"type": "string"}),
]
Variables = Annotated[
    dict[VariableName, Any],
    BeforeValidator(_variables),
    WithJsonSchema({"anyOf": [{"type": "object"}, {"type": "array", "items": {"type": "object"}}]}),
]
# ``environment`` and ``module_defaults``: a mapping, a list of mappings, or a template; merged by the executor.
Layered = Annotated[
    Any, BeforeValidator(_layered), WithJsonSchema({"anyOf": [{"type": "object"}, {"type": "array"}, _TEMPLATE_SCHEMA]})
]
