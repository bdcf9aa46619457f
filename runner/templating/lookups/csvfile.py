"""The ``csvfile`` lookup: a column of the row whose key column holds the key, in a delimited file on the
controller, as Ansible's.

``lookup('csvfile', 'Smith', file='people.csv', delimiter=',', col=1)``; the older inline form ``'Smith
file=people.csv delimiter=, col=1'`` is read too (Ansible's ``k=v`` parsing: the words without ``=`` are the key).
A key found nowhere gives ``default`` (nothing when unset); a list default adds each of its items.
"""

from __future__ import annotations

import csv
from typing import Any

from runner.parsing.kv import ArgumentSyntaxError, parse_kv
from runner.templating.errors import TemplateError
from runner.templating.lookups.base import LookupContext

_DEFAULTS: dict[str, Any] = {"col": 1, "keycol": 0, "default": None, "delimiter": "TAB", "file": "ansible.csv",
                             "encoding": "utf-8"}
_INTEGERS = ("col", "keycol")
_RAW_PARAMS = "_raw_params"


def csvfile(terms: list[Any], context: LookupContext, **options: Any) -> list[Any]:
    params = _checked({**_DEFAULTS, **options})
    if not terms:
        raise TemplateError("Search key is required but was not found")  # Ansible's words: playbooks match on them
    values: list[Any] = []
    for term in terms:
        try:
            inline = parse_kv(str(term), keep_raw=True)
        except ArgumentSyntaxError as exc:
            raise TemplateError(f"lookup 'csvfile': {exc}") from None
        if _RAW_PARAMS not in inline:
            raise TemplateError("Search key is required but was not found")
        key = inline.pop(_RAW_PARAMS)
        found = _read(key, _checked({**params, **inline}), context)
        if isinstance(found, list):
            values.extend(found)
        elif found is not None:
            values.append(found)
    return values


def _checked(params: dict[str, Any]) -> dict[str, Any]:
    for name in params:
        if name not in _DEFAULTS:
            raise TemplateError(f"{name!r} is not a valid option")
    checked = dict(params)
    for name in _INTEGERS:
        try:
            checked[name] = int(params[name])
        except (TypeError, ValueError):  # Ansible's words for an option of the wrong type
            raise TemplateError(f"Config {name!r} for 'csvfile' lookup plugin from 'direct' has an invalid value: "
                                f"{params[name]!r} is not an integer") from None
    return checked


def _read(key: str, params: dict[str, Any], context: LookupContext) -> Any:
    name = str(params["file"])
    path = context.find_file(name, "files")
    if path is None:
        raise TemplateError(f"lookup 'csvfile': [Errno 2] No such file or directory: {name!r}")
    delimiter = "\t" if params["delimiter"] == "TAB" else str(params["delimiter"])
    try:
        with path.open(encoding=str(params["encoding"]), newline="") as stream:
            for row in csv.reader(stream, dialect=csv.excel, delimiter=delimiter):
                if row and row[params["keycol"]] == key:
                    return row[params["col"]]
    except (OSError, UnicodeDecodeError, LookupError, csv.Error, TypeError, IndexError) as exc:
        raise TemplateError(f"lookup 'csvfile': cannot read {path}: {exc}") from None
    return params["default"]


LOOKUPS = {"csvfile": csvfile}
