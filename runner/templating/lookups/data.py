"""Lookups over data the task already has: ``items``, ``list``, ``dict``, ``indexed_items``, ``vars``,
``varnames``, ``random_choice``, ``sequence``, ``together``, ``nested``, ``subelements`` (the ``with_<name>``
loops use them too)."""

from __future__ import annotations

import itertools
import re
import secrets
from collections.abc import Mapping
from typing import Any

from runner.errors import UserError
from runner.parsing.kv import parse_kv
from runner.templating.errors import TemplateError
from runner.templating.filters.structures import subelements as subelements_filter
from runner.templating.lookups.base import _MISSING, LookupContext, flatten_once


def items(terms: list[Any], context: LookupContext) -> list[Any]:
    """One level flattened: ``with_items: [[1, 2], 3]`` loops over 1, 2, 3."""
    return flatten_once(terms)


def list_lookup(terms: list[Any], context: LookupContext) -> list[Any]:
    return list(terms)


def dict_lookup(terms: list[Any], context: LookupContext) -> list[dict[str, Any]]:
    pairs: list[dict[str, Any]] = []
    for term in terms:
        if not isinstance(term, Mapping):
            # Ansible's words (playbooks match on them)
            raise TemplateError(f"the 'dict' lookup plugin expects a dictionary, got {str(term)!r} of type "
                                f"{type(term).__name__} (with_dict takes a mapping)")
        pairs.extend({"key": key, "value": value} for key, value in term.items())
    return pairs


def indexed_items(terms: list[Any], context: LookupContext) -> list[list[Any]]:
    return [[index, item] for index, item in enumerate(flatten_once(terms))]


def vars_lookup(terms: list[Any], context: LookupContext, default: Any = _MISSING) -> list[Any]:
    values = []
    for term in terms:
        if not isinstance(term, str):
            raise TemplateError(f"lookup 'vars': Variable name must be 'str' not '{type(term).__name__}'")
        values.append(context.variable(term, default))
    return values


def varnames(terms: list[Any], context: LookupContext) -> list[str]:
    """The names of the variables each regular expression finds (``re.search``), term after term."""
    names = list(context.variables.keys())
    found: list[str] = []
    for term in terms:
        if not isinstance(term, str):
            raise TemplateError(f"lookup 'varnames': Invalid setting identifier, {term!r} is not a string")
        try:
            pattern = re.compile(term)
        except re.error as exc:
            raise TemplateError(f"lookup 'varnames': Unable to use {term!r} as a search parameter: {exc}") from None
        found.extend(name for name in names if pattern.search(name))
    return found


def random_choice(terms: list[Any], context: LookupContext) -> list[Any]:
    """One of the terms, chosen at random (none for no terms)."""
    return [secrets.choice(terms)] if terms else []


_SEQUENCE_SHORTCUT = re.compile(
    r"^(?:(?P<start>(?:0[xX])?[0-9a-fA-F]+)-)?(?P<end>(?:0[xX])?[0-9a-fA-F]+)"
    r"(?:/(?P<stride>(?:0[xX])?[0-9a-fA-F]+))?(?::(?P<format>.+))?$"
)


def _integer(value: Any, name: str) -> int:
    try:
        return int(value, 0) if isinstance(value, str) else int(value)
    except (TypeError, ValueError):
        raise TemplateError(f"lookup 'sequence': {name}={value!r} has an invalid value: "
                            "it must be an integer") from None


def _sequence_options(term: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    options = dict(defaults)
    text = str(term).strip()
    shortcut = _SEQUENCE_SHORTCUT.match(text) if "=" not in text else None
    if shortcut:
        options.update({key: value for key, value in shortcut.groupdict().items() if value is not None})
    elif text:
        try:
            parsed = parse_kv(text)
        except UserError as exc:
            raise TemplateError(f"lookup 'sequence': {exc.message}") from None
        unknown = set(parsed) - {"start", "end", "count", "stride", "format"}
        if unknown:
            raise TemplateError(f"lookup 'sequence': unrecognized arguments to with_sequence: {sorted(unknown)} "
                                f"in {text!r}")
        options.update(parsed)
    return options


def _generate(options: Mapping[str, Any]) -> list[str]:
    start = _integer(options.get("start", 1), "start")
    stride = _integer(options.get("stride", 1), "stride")
    count, end = options.get("count"), options.get("end")
    fmt = str(options.get("format", "%d"))
    # the messages are Ansible's, word for word: playbooks match on them
    if count is None and end is None:
        raise TemplateError("lookup 'sequence': must specify count or end in with_sequence")
    if count is not None and end is not None:
        raise TemplateError("lookup 'sequence': can't specify both count and end in with_sequence")
    if count is not None:
        count = _integer(count, "count")
        if count == 0:
            return []
        # Ansible's arithmetic, quirk included: with a negative stride the sequence runs past ``count`` items
        # (``count=5 start=0 stride=-1`` gives 0 to -6), and playbooks and its tests rely on it
        end = start + count * stride - 1
    end = _integer(end, "end")
    if stride > 0 and end < start:
        raise TemplateError("lookup 'sequence': to count backwards make stride negative")
    if stride < 0 and end > start:
        raise TemplateError("lookup 'sequence': to count forward don't make stride negative")
    if stride == 0:
        return []
    if fmt.count("%") != 1:
        raise TemplateError(f"lookup 'sequence': bad formatting string: {fmt} (it needs exactly one %)")
    try:
        return [fmt % number for number in range(start, end + (1 if stride > 0 else -1), stride)]
    except (TypeError, ValueError):
        raise TemplateError(f"lookup 'sequence': cannot format numbers with {fmt!r}") from None


def sequence(terms: list[Any], context: LookupContext, **options: Any) -> list[str]:
    """``start=1 end=5``, ``count=3 format=node%02d``, ``0x0a-0x0f/2:%x``, or the same as keyword options."""
    generated: list[str] = []
    # keyword options alone still make one sequence; no terms and no options make none, as in Ansible
    for term in terms or ([""] if options else []):
        generated.extend(_generate(_sequence_options(term, options)))
    return generated


def together(terms: list[Any], context: LookupContext) -> list[list[Any]]:
    if not terms:
        raise TemplateError("with_together requires at least one element in each list")
    return [list(group) for group in itertools.zip_longest(*terms, fillvalue=None)]


def nested(terms: list[Any], context: LookupContext) -> list[list[Any]]:
    if not terms:
        raise TemplateError("with_nested requires at least one element in the nested list")
    return [flatten_once(list(group)) for group in itertools.product(*terms)]


def subelements(terms: list[Any], context: LookupContext) -> list[list[Any]]:
    """``[users, 'keys']`` or ``[users, 'keys', {'skip_missing': True}]``: pairs (user, key). A registered
    result that was skipped, whole or per item, gives nothing for it."""
    usage = "subelements lookup expects a list of two or three items, "  # Ansible's words, matched on
    if len(terms) not in (2, 3):
        raise TemplateError(usage.rstrip(", "))
    if not isinstance(terms[0], (list, Mapping)) or not isinstance(terms[1], str):
        raise TemplateError(usage + "first a dict or a list, second a string pointing to the subkey")
    flags = terms[2] if len(terms) == 3 else {}
    if not isinstance(flags, Mapping) or any(key != "skip_missing" for key in flags):
        raise TemplateError(usage + "the optional third item must be a dict with flags ('skip_missing',)")
    elements = terms[0]
    if isinstance(elements, Mapping):
        if elements.get("skipped", False) is not False:
            return []
        elements = list(elements.values())
    kept = [element for element in elements
            if not (isinstance(element, Mapping) and element.get("skipped", False) is not False)]
    return [list(pair) for pair in subelements_filter(kept, terms[1], bool(flags.get("skip_missing")))]


LOOKUPS = {
    "items": items,
    "list": list_lookup,
    "dict": dict_lookup,
    "indexed_items": indexed_items,
    "vars": vars_lookup,
    "varnames": varnames,
    "random_choice": random_choice,
    "sequence": sequence,
    "together": together,
    "nested": nested,
    "subelements": subelements,
}
