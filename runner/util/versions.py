"""Versions (role tags, taskserv versions) in semver form and the constraints requirements put on them.

A version is a registry tag in semver form, ``MAJOR.MINOR.PATCH`` with an optional ``-alpha``/``-beta``/``-rc``
pre-release (``1.4.0``, ``2.0.0-rc.1``); other tags (``latest``, ``main``) are not versions. Ordering and
comparisons are ``packaging``'s (already a dependency), with npm's constraint spellings translated into its
specifiers:

=================  =========================  ===========================================
constraint         means                      as written in requirements
=================  =========================  ===========================================
``1.2.3``          exactly 1.2.3              also ``=1.2.3``, ``==1.2.3``
``^1.2``           >=1.2.0, <2.0.0            ``^0.3`` is >=0.3.0,<0.4.0 (0.x is unstable)
``~1.2``           >=1.2.0, <1.3.0            ``~1`` is >=1.0.0,<2.0.0
``1.2``/``1.2.x``  >=1.2.0, <1.3.0            a partial version is a wildcard
``>=1.0,<2``       both                       comparators joined by commas or spaces
``a || b``         either                     alternatives
``*``              any                        also ``latest`` or nothing
=================  =========================  ===========================================

Pre-releases are only chosen when a constraint names one (``>=2.0.0-rc.1``), as npm and pip do.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import InvalidVersion, Version

SEMVER_TAG = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:alpha|beta|rc|a|b)(?:\.?\d+)?))?$")
_PARTIAL = re.compile(r"^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.]+))?$")
_COMPARATOR = re.compile(r"^(>=|<=|!=|==|>|<|=|\^|~)?\s*(.+)$")
ANY_WORDS = frozenset({"", "*", "x", "X", "latest"})


class ConstraintError(ValueError):
    """A constraint that cannot be read; its text says what was expected."""


def parse_version(tag: str) -> Version | None:
    """The version a tag stands for, or None when the tag is no semver version."""
    if not SEMVER_TAG.match(tag):
        return None
    try:
        return Version(tag)
    except InvalidVersion:
        return None


def is_version(tag: str) -> bool:
    return parse_version(tag) is not None


def sort_versions(tags: Iterable[str]) -> list[str]:
    """The tags that are versions, lowest first."""
    versions = [(version, tag) for tag in tags if (version := parse_version(tag)) is not None]
    return [tag for _, tag in sorted(versions)]


@dataclass(frozen=True)
class Constraint:
    """What versions a requirement accepts: any of ``alternatives`` (each a set of comparators, all to hold)."""

    text: str
    alternatives: tuple[SpecifierSet, ...] = field(default=(SpecifierSet(),))

    def allows(self, version: str | Version) -> bool:
        parsed = parse_version(version) if isinstance(version, str) else version
        if parsed is None:
            return False
        return any(alternative.contains(parsed, prereleases=_names_prerelease(alternative))
                   for alternative in self.alternatives)

    def best(self, tags: Iterable[str]) -> str | None:
        """The highest tag this constraint allows, or None."""
        allowed = [tag for tag in sort_versions(tags) if self.allows(tag)]
        return allowed[-1] if allowed else None

    @property
    def is_any(self) -> bool:
        return self.text.strip() in ANY_WORDS

    def __str__(self) -> str:
        return self.text.strip() or "*"


ANY = Constraint("*")


def _names_prerelease(specifiers: SpecifierSet) -> bool:
    # Said explicitly: packaging's own default for this changed between releases.
    return any(Version(specifier.version).is_prerelease for specifier in specifiers)


def parse_constraint(text: str | None) -> Constraint:
    """Read a constraint as the table above spells it; raises ``ConstraintError`` saying what was expected."""
    text = "" if text is None else str(text).strip()
    if text in ANY_WORDS:
        return Constraint(text or "*")
    alternatives = []
    for alternative in text.split("||"):
        specifiers: list[str] = []
        alternative = re.sub(r"(>=|<=|!=|==|>|<|=|\^|~)\s+", r"\1", alternative.strip())
        for part in re.split(r"[,\s]+(?=[<>=!~^\dvxX*])", alternative):
            part = part.strip().rstrip(",").strip()
            if part:
                specifiers += _translate(part, text)
        try:
            alternatives.append(SpecifierSet(",".join(specifiers)))
        except InvalidSpecifier:
            raise _invalid(text) from None
    return Constraint(text, tuple(alternatives))


def _invalid(text: str) -> ConstraintError:
    return ConstraintError(f"'{text}' is not a version constraint (expected for instance 1.2.3, ^1.2, ~1.2, "
                           ">=1.0,<2 or *)")


def _translate(part: str, whole: str) -> list[str]:
    """One comparator (``^1.2``, ``>=1.0``, ``1.x``) as packaging specifiers."""
    match = _COMPARATOR.match(part)
    if match is None:
        raise _invalid(whole)
    operator, version_text = match.group(1) or "", match.group(2).strip()
    version = _PARTIAL.match(version_text)
    if version is None:
        raise _invalid(whole)
    major, minor, patch, pre = version.groups()
    wildcard = [p is None or p in "xX*" for p in (minor, patch)]
    numbers = [int(major), 0 if wildcard[0] else int(minor), 0 if wildcard[0] or wildcard[1] else int(patch)]
    base = ".".join(map(str, numbers)) + (f"-{pre}" if pre else "")
    if operator == "^":
        return [f">={base}", f"<{_caret_ceiling(numbers, wildcard)}"]
    if operator == "~":
        ceiling = f"{numbers[0] + 1}.0.0" if wildcard[0] else f"{numbers[0]}.{numbers[1] + 1}.0"
        return [f">={base}", f"<{ceiling}"]
    if operator in ("", "=", "==") and any(wildcard):
        if wildcard[0]:
            return [f">={numbers[0]}.0.0", f"<{numbers[0] + 1}.0.0"]
        return [f">={numbers[0]}.{numbers[1]}.0", f"<{numbers[0]}.{numbers[1] + 1}.0"]
    return [f"{'==' if operator in ('', '=') else operator}{base}"]


def _caret_ceiling(numbers: list[int], wildcard: list[bool]) -> str:
    """``^`` allows changes that do not modify the left-most non-zero part (npm's rule)."""
    major, minor, patch = numbers
    if major > 0 or wildcard[0]:
        return f"{major + 1}.0.0"
    if minor > 0 or wildcard[1]:
        return f"0.{minor + 1}.0"
    return f"0.0.{patch + 1}"
