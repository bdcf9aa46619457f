"""Filters over lists and dicts: merging, reshaping, set operations and combinatorics, as Ansible defines them."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeGuard

from jinja2 import pass_environment
from jinja2.filters import do_unique

from runner.templating.errors import TemplateError

LIST_MERGE_MODES = ("replace", "keep", "append", "prepend", "append_rp", "prepend_rp")


def _is_list(value: Any) -> TypeGuard[Sequence[Any]]:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _merge_lists(old: list[Any], new: list[Any], mode: str) -> list[Any]:
    if mode == "replace":
        return new
    if mode == "keep":
        return old
    if mode == "append":
        return old + new
    if mode == "prepend":
        return new + old
    if mode == "append_rp":  # append, and drop from the old list what the new one brings again
        return [item for item in old if item not in new] + new
    return new + [item for item in old if item not in new]  # prepend_rp


def merge_dicts(old: Mapping[Any, Any], new: Mapping[Any, Any], recursive: bool, list_merge: str) -> dict[Any, Any]:
    """``new`` over ``old``: nested dicts merged when ``recursive``, lists per ``list_merge``."""
    merged = dict(old)
    for key, value in new.items():
        current = merged.get(key)
        if recursive and isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = merge_dicts(current, value, recursive, list_merge)
        elif _is_list(current) and _is_list(value) and key in merged:
            merged[key] = _merge_lists(list(current), list(value), list_merge)
        else:
            merged[key] = value
    return merged


def combine(*terms: Any, recursive: bool = False, list_merge: str = "replace") -> dict[Any, Any]:
    """``a | combine(b, c, recursive=True, list_merge='append')``; lists of dicts are taken in order."""
    if list_merge not in LIST_MERGE_MODES:
        raise TemplateError(f"combine: list_merge must be one of {', '.join(LIST_MERGE_MODES)}, not '{list_merge}'")
    dicts: list[Mapping[Any, Any]] = []
    for term in terms:
        for item in (term if _is_list(term) else [term]):
            if not isinstance(item, Mapping):
                raise TemplateError(f"combine: expected dictionaries, got {type(item).__name__}")
            dicts.append(item)
    result: dict[Any, Any] = {}
    for item in dicts:
        result = merge_dicts(result, item, recursive, list_merge)
    return result


def dict2items(value: Any, key_name: str = "key", value_name: str = "value") -> list[dict[str, Any]]:
    if not isinstance(value, Mapping):
        raise TemplateError(f"dict2items requires a dictionary, got {type(value).__name__} instead.")
    return [{key_name: key, value_name: item} for key, item in value.items()]


def items2dict(value: Any, key_name: str = "key", value_name: str = "value") -> dict[Any, Any]:
    if not _is_list(value):
        raise TemplateError(f"items2dict requires a list, got {type(value).__name__} instead.")
    try:
        return {item[key_name]: item[value_name] for item in value}
    except (KeyError, TypeError):
        raise TemplateError(f"items2dict requires each item to be a dictionary with the keys '{key_name}' and "
                            f"'{value_name}'") from None


def flatten(values: Any, levels: int | None = None, skip_nulls: bool = True) -> list[Any]:
    """Nested lists made flat (``levels`` deep, or entirely); ``None``/'None'/'null' dropped unless asked."""
    flat: list[Any] = []
    for item in values:
        if skip_nulls and (item is None or item in ("None", "null")):
            continue
        if _is_list(item) and (levels is None or int(levels) >= 1):
            flat.extend(flatten(item, None if levels is None else int(levels) - 1, skip_nulls))
        else:
            flat.append(item)
    return flat


def _distinct(values: Iterable[Any]) -> list[Any]:
    """Order-preserving and case-sensitive; works for unhashable items such as dicts."""
    result: list[Any] = []
    for item in values:
        if item not in result:
            result.append(item)
    return result


@pass_environment
def unique(environment: Any, values: Any, case_sensitive: bool | None = None, attribute: str | None = None) -> list:
    """Jinja2's ``unique`` (case-insensitive unless ``case_sensitive``), falling back to plain equality for
    items it cannot hash, as Ansible's does."""
    try:
        return list(do_unique(environment, values, case_sensitive=bool(case_sensitive), attribute=attribute))
    except TypeError as exc:
        if attribute is not None or case_sensitive is False:
            # Ansible's words: playbooks match on "cannot fall back"
            raise TemplateError("Jinja2's unique filter failed and we cannot fall back to Ansible's version as it "
                                f"does not support the parameters supplied: {exc}") from None
        return _distinct(values)


def union(first: Any, second: Any) -> list[Any]:
    return _distinct(list(first) + list(second))


def intersect(first: Any, second: Any) -> list[Any]:
    second = list(second)
    return _distinct(item for item in first if item in second)


def difference(first: Any, second: Any) -> list[Any]:
    second = list(second)
    return _distinct(item for item in first if item not in second)


def symmetric_difference(first: Any, second: Any) -> list[Any]:
    common = intersect(first, second)
    return [item for item in union(first, second) if item not in common]


@pass_environment
def extract(environment: Any, item: Any, container: Any, morekeys: Any = None) -> Any:
    """``['a', 'b'] | map('extract', hostvars, 'ansible_host')``: ``container[item][morekeys...]``."""
    value = environment.getitem(container, item)
    keys = [] if morekeys is None else (morekeys if _is_list(morekeys) else [morekeys])
    for key in keys:
        value = environment.getitem(value, key)
    return value


def subelements(values: Any, subelement: str, skip_missing: bool = False) -> list[tuple[Any, Any]]:
    """``users | subelements('keys')``: a pair (user, key) for every key of every user."""
    if isinstance(values, Mapping):
        values = list(values.values())
    if not _is_list(values):
        raise TemplateError("subelements: the first argument must be a list of dictionaries or a dictionary")
    if not isinstance(subelement, str):
        raise TemplateError("subelements: the second argument must be the name of a key (a string)")
    path = subelement.split(".")
    pairs: list[tuple[Any, Any]] = []
    for element in values:
        value = element
        for index, key in enumerate(path):
            if not isinstance(value, Mapping) or key not in value:
                if skip_missing:
                    value = None
                    break
                raise TemplateError(f"subelements: could not find '{key}' key in iterated item {element!r}")
            value = value[key]
            if index < len(path) - 1 and not isinstance(value, Mapping):
                if skip_missing:  # a path that ends early is as missing as one that is not there
                    value = None
                    break
                raise TemplateError(f"subelements: the key {key} should point to a dictionary, got {value!r}")
        if value is None and skip_missing:
            continue
        if not _is_list(value):
            raise TemplateError(f"subelements: the key {path[-1]} should point to a list, got {value!r}")
        pairs.extend((element, item) for item in value)
    return pairs


def rekey_on_member(data: Any, key: Any, duplicates: str = "error") -> dict[Any, Any]:
    """A list (or the values of a dict) of dictionaries as one dictionary keyed on each one's ``key`` member;
    a key seen twice fails unless ``duplicates='overwrite'``."""
    if duplicates not in ("error", "overwrite"):
        raise TemplateError(f"duplicates parameter to rekey_on_member has unknown value {duplicates!r}")
    if isinstance(data, Mapping):
        items = list(data.values())
    elif _is_list(data):
        items = list(data)
    else:
        raise TemplateError("rekey_on_member: Type is not a valid list, set, or dict")
    rekeyed: dict[Any, Any] = {}
    for item in items:
        if not isinstance(item, Mapping):
            raise TemplateError("rekey_on_member: List item is not a valid dict")
        if key not in item:
            raise TemplateError(f"rekey_on_member: Key {key!r} was not found in {item!r}")
        if item[key] in rekeyed and duplicates == "error":
            raise TemplateError(f"rekey_on_member: Key {item[key]!r} is not unique, cannot convert to dict.")
        rekeyed[item[key]] = item
    return rekeyed


def to_dict(value: Any) -> dict[Any, Any]:
    """A list of key/value pairs as a dict (``[['a', 1]] | dict``); a mapping is copied."""
    try:
        return dict(value)
    except (TypeError, ValueError):
        raise TemplateError(f"dict: cannot make a dictionary of {value!r}; expected key/value pairs") from None


FILTERS = {
    "combine": combine,
    "dict2items": dict2items,
    "items2dict": items2dict,
    "flatten": flatten,
    "unique": unique,
    "union": union,
    "intersect": intersect,
    "difference": difference,
    "symmetric_difference": symmetric_difference,
    "zip": lambda *lists: [list(group) for group in zip(*lists, strict=False)],
    "zip_longest": lambda *lists, fillvalue=None: [list(group) for group in
                                                   itertools.zip_longest(*lists, fillvalue=fillvalue)],
    "extract": extract,
    "subelements": subelements,
    "rekey_on_member": rekey_on_member,
    "product": lambda *lists: [list(group) for group in itertools.product(*lists)],
    "permutations": lambda values, r=None: [list(group) for group in itertools.permutations(values, r)],
    "combinations": lambda values, r: [list(group) for group in itertools.combinations(values, r)],
    "dict": to_dict,
}
