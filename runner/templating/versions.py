"""Version comparison as Ansible's ``version`` test does it: loose (default), strict, semver and pep440 schemes."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any

from packaging.version import InvalidVersion
from packaging.version import Version as Pep440Version

from runner.templating.errors import TemplateError

OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "=": operator.eq, "eq": operator.eq,
    "<": operator.lt, "lt": operator.lt,
    "<=": operator.le, "le": operator.le,
    ">": operator.gt, "gt": operator.gt,
    ">=": operator.ge, "ge": operator.ge,
    "!=": operator.ne, "<>": operator.ne, "ne": operator.ne,
}

_LOOSE_PART = re.compile(r"(\d+|[a-z]+|\.)", re.IGNORECASE)
_STRICT = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(?:([ab])(\d+))?$")
_SEMVER = re.compile(
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
    r"(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$"
)


def loose_key(version: str) -> list[int | str]:
    """distutils' LooseVersion: numbers compare as numbers, letters as text, dots separate."""
    return [int(part) if part.isdigit() else part for part in _LOOSE_PART.findall(version) if part != "."]


def strict_key(version: str) -> tuple[Any, ...]:
    """distutils' StrictVersion: ``1.2``, ``1.2.3``, ``1.2a1``, ``1.2.3b2``; a pre-release sorts first."""
    match = _STRICT.match(version)
    if not match:
        raise TemplateError(f"invalid version number '{version}' for a strict comparison (expected N.N[.N][a|bN])")
    major, minor, patch, tag, tag_number = match.groups()
    pre = (tag, int(tag_number)) if tag else ("~",)  # "~" sorts after "a" and "b": a release beats its pre-releases
    return (int(major), int(minor), int(patch or 0), pre)


class _PreRelease:
    """One dot-separated pre-release identifier, ordered as Semantic Versioning 2.0 says."""

    def __init__(self, text: str):
        self.number = int(text) if text.isdigit() else None
        self.text = text

    def __lt__(self, other: _PreRelease) -> bool:
        if self.number is not None and other.number is not None:
            return self.number < other.number
        if (self.number is None) != (other.number is None):
            return self.number is not None  # numeric identifiers sort before alphanumeric ones
        return self.text < other.text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _PreRelease) and self.text == other.text


def semver_key(version: str) -> tuple[Any, ...]:
    """Semantic Versioning 2.0: build metadata is ignored; ``1.0.0-rc.1 < 1.0.0``."""
    match = _SEMVER.match(version.lstrip("v"))
    if not match:
        raise TemplateError(f"invalid semantic version '{version}' (expected MAJOR.MINOR.PATCH[-pre][+build])")
    major, minor, patch, pre, _build = match.groups()
    pre_key = (0, [_PreRelease(part) for part in pre.split(".")]) if pre else (1, [])
    return (int(major), int(minor), int(patch), pre_key)


def pep440_key(version: str) -> Pep440Version:
    try:
        return Pep440Version(version)
    except InvalidVersion:
        raise TemplateError(f"invalid PEP 440 version '{version}'") from None


VERSION_TYPES: dict[str, Callable[[str], Any]] = {
    "loose": loose_key, "strict": strict_key, "semver": semver_key, "semantic": semver_key, "pep440": pep440_key,
}


def compare_versions(value: Any, version: Any, op: str = "eq", strict: bool | None = None,
                     version_type: str | None = None) -> bool:
    """``value <op> version`` under the chosen scheme; ``strict=True`` is ``version_type='strict'``."""
    if strict is not None and version_type is not None:
        raise TemplateError("the version test takes 'strict' or 'version_type', not both")
    if value in (None, ""):
        raise TemplateError("Input version value cannot be empty")
    if version in (None, ""):
        raise TemplateError("Version parameter to compare against cannot be empty")
    if op not in OPERATORS:
        raise TemplateError(f"invalid version comparison operator '{op}'; expected one of {', '.join(OPERATORS)}")
    scheme = "strict" if strict else (version_type or "loose")
    if scheme not in VERSION_TYPES:
        raise TemplateError(f"unknown version_type '{scheme}'; expected one of {', '.join(VERSION_TYPES)}")
    key = VERSION_TYPES[scheme]
    try:
        return OPERATORS[op](key(str(value)), key(str(version)))
    except TypeError:
        raise TemplateError(f"cannot compare versions '{value}' and '{version}' loosely (a number meets a word); "
                            "use version_type='semver' or 'pep440'") from None
