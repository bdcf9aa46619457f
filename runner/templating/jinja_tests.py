"""Ansible's Jinja2 tests (``result is changed``, ``x is version('1.2', '>=')``...), beside Jinja2's own
(``defined``, ``string``, ``number``, ``mapping``, ``sequence``, ``iterable``, ``boolean``, ``integer``...).

Path tests (``file``, ``directory``, ``exists``, ``link``, ``abs``) look at the controller's file system."""

from __future__ import annotations

import math
import os.path
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import urlparse

from modules._utils import ArgumentError
from modules._utils import to_bool as module_boolean
from runner.secrets.detect import is_vault
from runner.secrets.encrypted import VaultedText, VaultEncryptedValue
from runner.templating.errors import TemplateError
from runner.templating.versions import compare_versions


def _result(value: Any, test: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise TemplateError(f"the '{test}' test expects a task result (a dictionary), got {type(value).__name__}")
    return value


def changed(value: Any) -> bool:
    """A result that changed something; for a loop's result, any item that did."""
    result = _result(value, "changed")
    if "changed" in result:
        return bool(result["changed"])
    items = result.get("results")
    return isinstance(items, list) and any(isinstance(item, Mapping) and item.get("changed") for item in items)


def failed(value: Any) -> bool:
    return bool(_result(value, "failed").get("failed", False))


def succeeded(value: Any) -> bool:
    return not failed(value)


def skipped(value: Any) -> bool:
    return bool(_result(value, "skipped").get("skipped", False))


def unreachable(value: Any) -> bool:
    return bool(_result(value, "unreachable").get("unreachable", False))


def timedout(value: Any) -> bool:
    """A task stopped at its ``timeout``."""
    stopped = _result(value, "timedout").get("timedout")
    return bool(stopped and isinstance(stopped, Mapping) and stopped.get("period"))


def finished(value: Any) -> bool:
    """For ``async`` results: finished unless it says otherwise."""
    return bool(_result(value, "finished").get("finished", 1))


def vault_encrypted(value: Any) -> bool:
    """An inline ``!vault`` value, encrypted or already read (its plaintext remembers where it came from)."""
    return isinstance(value, (VaultEncryptedValue, VaultedText))


def vaulted_file(value: Any) -> bool:
    """A file (on the controller, relative to the working directory) that starts as a vault does."""
    try:
        with open(str(value), "rb") as handle:
            return is_vault(handle.read(len("$ANSIBLE_VAULT")))
    except OSError as exc:  # Ansible's words
        raise TemplateError(f"Cannot test if the file {value} is a vault: {exc}") from None


def started(value: Any) -> bool:
    """For ``async`` results: started unless it says otherwise (a task that was not async ran, so it started)."""
    return bool(_result(value, "started").get("started", 1))


def regex(value: Any = "", pattern: str = "", ignorecase: bool = False, multiline: bool = False,
          match_type: str = "search") -> bool:
    if match_type not in ("search", "match", "fullmatch"):
        # ansible-core 2.21's words (2.19 failed with Python's AttributeError)
        raise TemplateError("Invalid match_type specified. Expected one of: search, match, fullmatch.")
    flags = (re.IGNORECASE if ignorecase else 0) | (re.MULTILINE if multiline else 0)
    try:
        compiled = re.compile(pattern, flags)
    except re.error as exc:
        raise TemplateError(f"invalid regular expression {pattern!r}: {exc}") from None
    return bool(getattr(compiled, match_type)(str(value)))


def truthy(value: Any, convert_bool: bool = False) -> bool:
    """Python truth; with ``convert_bool``, boolean words count as what they say ("no" is falsy)."""
    if convert_bool and isinstance(value, (str, int, float)):
        try:
            value = module_boolean(value)
        except ArgumentError:
            pass
    return bool(value)


def subset(first: Iterable[Any], second: Iterable[Any]) -> bool:
    other = list(second)
    return all(item in other for item in first)


def superset(first: Iterable[Any], second: Iterable[Any]) -> bool:
    return subset(second, first)


def is_nan(value: Any) -> bool:
    """A float that is NaN; anything that is not a number is not NaN (no error)."""
    try:
        return math.isnan(value)
    except TypeError:
        return False


def is_uri(value: Any, schemes: Iterable[str] | None = None) -> bool:
    """Parses as a URI (Ansible's lenient check: a scheme may be implied), with a scheme among ``schemes``
    when they are given."""
    try:
        scheme = urlparse(str(value)).scheme
    except ValueError:
        return False
    return not schemes or scheme in list(schemes)


def is_url(value: Any, schemes: Iterable[str] | None = None) -> bool:
    """A URI with a network location (``file:`` URLs need none)."""
    if not is_uri(value, schemes):
        return False
    parsed = urlparse(str(value))
    return bool(parsed.netloc or parsed.scheme == "file")


def is_urn(value: Any) -> bool:
    return is_uri(value, ["urn"])


def path_tests() -> dict[str, Callable[..., bool]]:
    """Tests on the controller's paths, each also under Ansible's ``is_`` name (``'.' is is_dir``)."""
    tests: dict[str, Callable[..., bool]] = {
        "file": lambda path: os.path.isfile(str(path)),
        "directory": lambda path: os.path.isdir(str(path)),
        "link": lambda path: os.path.islink(str(path)),
        "abs": lambda path: os.path.isabs(str(path)),
        "same_file": lambda first, second: os.path.samefile(str(first), str(second)),
        "mount": lambda path: os.path.ismount(str(path)),
    }
    tests.update({f"is_{name}": test for name, test in tests.items()})
    tests["is_dir"] = tests.pop("is_directory")
    tests["exists"] = lambda path: os.path.exists(os.path.expanduser(str(path)))
    tests["link_exists"] = lambda path: os.path.lexists(os.path.expanduser(str(path)))
    return tests


def builtin_tests() -> dict[str, Callable[..., bool]]:
    return {
        "changed": changed, "change": changed,
        "failed": failed, "failure": failed,
        "succeeded": succeeded, "success": succeeded, "successful": succeeded,
        "skipped": skipped, "skip": skipped,
        "unreachable": unreachable, "reachable": lambda value: not unreachable(value),
        "finished": finished,
        "started": started,
        "vault_encrypted": vault_encrypted,
        "vaulted_file": vaulted_file,
        "timedout": timedout,
        "match": lambda value, pattern="", ignorecase=False, multiline=False:
            regex(value, pattern, ignorecase, multiline, "match"),
        "search": lambda value, pattern="", ignorecase=False, multiline=False:
            regex(value, pattern, ignorecase, multiline, "search"),
        "regex": regex,
        "subset": subset, "issubset": subset,
        "superset": superset, "issuperset": superset,
        "contains": lambda container, item: item in container,
        "version": compare_versions, "version_compare": compare_versions,
        **path_tests(),
        "truthy": truthy,
        "falsy": lambda value, convert_bool=False: not truthy(value, convert_bool),
        "any": lambda values: any(values),
        "all": lambda values: all(values),
        "nan": is_nan, "isnan": is_nan,
        "uri": is_uri, "url": is_url, "urn": is_urn,
    }
