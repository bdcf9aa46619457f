"""Serialisation filters: JSON and YAML both ways, formatted as Ansible formats them."""

from __future__ import annotations

import datetime
import json
from typing import Any

import yaml

from runner.errors import ParseError
from runner.loader.aliases import bounded_safe_load
from runner.templating.errors import TemplateError
from runner.util.unsafe import strip_unsafe


class _JSONEncoder(json.JSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime.date, datetime.datetime, datetime.time)):
            return o.isoformat()
        if isinstance(o, (set, frozenset, tuple)):
            return list(o)
        if isinstance(o, bytes):
            return o.decode("utf-8", errors="replace")
        return super().default(o)


def to_json(value: Any, *args: Any, **kwargs: Any) -> str:
    return json.dumps(value, *args, cls=_JSONEncoder, **kwargs)


def to_nice_json(value: Any, indent: int = 4, sort_keys: bool = True, *args: Any, **kwargs: Any) -> str:
    return json.dumps(value, *args, cls=_JSONEncoder, indent=indent, sort_keys=sort_keys,
                      separators=(",", ": "), **kwargs)


def from_json(value: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return json.loads(value, *args, **kwargs)
    except (TypeError, ValueError) as exc:
        raise TemplateError(f"from_json: not valid JSON: {exc}") from None


def to_yaml(value: Any, *args: Any, **kwargs: Any) -> str:
    kwargs.setdefault("default_flow_style", None)
    # Ansible passes the filter's arguments on to yaml.dump as given; its stubs cannot match a variadic tuple.
    return yaml.dump(  # type: ignore[call-overload]
        strip_unsafe(value), *args, Dumper=yaml.SafeDumper, allow_unicode=True, **kwargs)


def to_nice_yaml(value: Any, indent: int = 4, *args: Any, **kwargs: Any) -> str:
    kwargs.setdefault("default_flow_style", False)
    return yaml.dump(  # type: ignore[call-overload]  # as in to_yaml
        strip_unsafe(value), *args, Dumper=yaml.SafeDumper, indent=indent, allow_unicode=True, **kwargs)


def from_yaml(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return bounded_safe_load(value, "from_yaml")
    except yaml.YAMLError as exc:
        raise TemplateError(f"from_yaml: not valid YAML: {exc}") from None
    except ParseError as exc:
        raise TemplateError(f"from_yaml: {exc.message}") from None


def from_yaml_all(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    try:
        return bounded_safe_load(value, "from_yaml_all", all_documents=True)
    except yaml.YAMLError as exc:
        raise TemplateError(f"from_yaml_all: not valid YAML: {exc}") from None
    except ParseError as exc:
        raise TemplateError(f"from_yaml_all: {exc.message}") from None


FILTERS = {
    "to_json": to_json,
    "to_nice_json": to_nice_json,
    "from_json": from_json,
    "to_yaml": to_yaml,
    "to_nice_yaml": to_nice_yaml,
    "from_yaml": from_yaml,
    "from_yaml_all": from_yaml_all,
}
