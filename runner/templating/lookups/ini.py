"""The ``ini`` lookup: a value (or, with ``re``, the values of matching keys) of an INI or Java properties file on
the controller, as Ansible's.

``lookup('ini', 'user', section='mysqld', file='my.cnf')``; the older inline form ``'user section=mysqld
file=my.cnf'`` is read too (a value there may hold spaces: words up to the next ``option=`` belong to it).
"""

from __future__ import annotations

import configparser
import re
from typing import Any

from runner.templating.errors import TemplateError
from runner.templating.filters.core import to_bool
from runner.templating.lookups.base import LookupContext

_DEFAULTS: dict[str, Any] = {"type": "ini", "file": "ansible.ini", "section": "global", "re": False,
                             "encoding": "utf-8", "default": "", "case_sensitive": False, "allow_no_value": False,
                             "allow_none": False, "interpolation": True}
_BOOLEANS = ("re", "case_sensitive", "allow_no_value", "allow_none", "interpolation")
_PROPERTIES_SECTION = "java_properties"  # a properties file is read as an INI file with this one section


def ini(terms: list[Any], context: LookupContext, **options: Any) -> list[Any]:
    _check_names(options)
    values: list[Any] = []
    for term in terms:
        key, params = _inline(str(term), {**_DEFAULTS, **options})
        found = _value(key, params, context)
        if isinstance(found, list):
            values.extend(found)
        elif found is not None:
            values.append(found)
    return values


def _check_names(options: dict[str, Any]) -> None:
    for name in options:
        if name not in _DEFAULTS:
            raise TemplateError(f"lookup 'ini': {name!r} is not a valid option.")


def _inline(term: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """``'KEY option=value ...'`` -> (KEY, options); a term without ``=`` or spaces is the key alone."""
    if "=" not in term and " " not in term.strip():
        return term, params
    pieces: dict[str, str] = {}  # option name (or "key") -> its text; a word without '=' extends the last one
    current = "key"
    for index, word in enumerate(term.split()):
        if "=" in word:
            current = next((name for name in _DEFAULTS if f"{name}=" in word), current)
        if index == 0 or not pieces.get(current):
            pieces[current] = word
        else:
            pieces[current] += f" {word}"
    key = None
    given: dict[str, Any] = {}
    for text in pieces.values():
        if "=" in text:
            option, _, value = text.partition("=")
            given[option] = value
        elif key is None:
            key = text
    _check_names(given)
    if key is None:
        raise TemplateError(f"lookup 'ini': No key to look up was provided as first term within string inline "
                            f"options: {term}")
    return key, {**params, **given}


def _value(key: str, params: dict[str, Any], context: LookupContext) -> Any:
    flags = {name: to_bool(params[name]) for name in _BOOLEANS}
    parser = configparser.ConfigParser(allow_no_value=bool(flags["allow_no_value"] or flags["allow_none"]),
                                       interpolation=configparser.BasicInterpolation() if flags["interpolation"]
                                       else None)
    if flags["case_sensitive"]:
        parser.optionxform = str  # type: ignore[assignment,method-assign]
    name = str(params["file"])
    path = context.require_file(name, "ini", "files")
    section = str(params["section"])
    try:
        text = path.read_text(encoding=str(params["encoding"]))
    except (OSError, UnicodeDecodeError, LookupError) as exc:
        raise TemplateError(f"lookup 'ini': cannot read {path}: {exc}") from None
    if params["type"] == "properties":
        text, section = f"[{_PROPERTIES_SECTION}]\n{text}", _PROPERTIES_SECTION
    try:
        parser.read_string(text, source=str(path))
        if flags["re"]:
            return [value for option, value in parser.items(section) if re.match(key, option)]
        return parser.get(section, key)
    except configparser.DuplicateOptionError:
        raise TemplateError(f"lookup 'ini': Duplicate option in {name!r}.") from None
    except configparser.NoSectionError:
        raise TemplateError(f"lookup 'ini': No section {section!r} in {name!r}.") from None
    except configparser.NoOptionError:
        return params["default"]
    except (configparser.Error, re.error) as exc:
        raise TemplateError(f"lookup 'ini': cannot read {name!r}: {exc}") from None


LOOKUPS = {"ini": ini}
