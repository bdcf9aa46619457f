"""Version helpers for taskserv roles: pick a release, compare versions, build download names.

``semver_compare(a, b)`` is -1, 0 or 1 under Semantic Versioning 2.0 (a leading "v" is allowed), and
``versions | semver_sort`` / ``versions | semver_latest`` order release lists such as GitHub tags.
``'1.29.3' | semver_parts`` is ``{'major': 1, 'minor': 29, 'patch': 3, 'prerelease': '', 'minor_version':
'1.29'}`` for paths like ``/v{{ (k8s_version | semver_parts).minor_version }}/deb/``.
"""

from __future__ import annotations

from typing import Any

from runner.templating.versions import semver_key


def semver_compare(first: Any, second: Any) -> int:
    left, right = semver_key(str(first)), semver_key(str(second))
    return (left > right) - (left < right)


def semver_sort(versions: Any, reverse: bool = False) -> list[Any]:
    return sorted(versions, key=lambda version: semver_key(str(version)), reverse=reverse)


def semver_latest(versions: Any, include_prereleases: bool = False) -> Any:
    candidates = [version for version in versions if include_prereleases or "-" not in str(version).lstrip("v")]
    return semver_sort(candidates)[-1] if candidates else None


def semver_parts(version: Any) -> dict[str, Any]:
    major, minor, patch, _ = semver_key(str(version))
    text = str(version).lstrip("v")
    _core, _, prerelease = text.split("+")[0].partition("-")
    return {"major": major, "minor": minor, "patch": patch, "prerelease": prerelease,
            "minor_version": f"{major}.{minor}"}


class FilterModule:
    def filters(self) -> dict[str, Any]:
        return {"semver_compare": semver_compare, "semver_sort": semver_sort, "semver_latest": semver_latest,
                "semver_parts": semver_parts}
