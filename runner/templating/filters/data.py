"""Serialisation filters: JSON and YAML both ways, formatted as Ansible formats them."""

from __future__ import annotations

import datetime
import json
from typing import Any

import yaml

from runner.errors import ParseError
from runner.loader.aliases import bounded_safe_load
from runner.secrets.encrypted import VaultEncryptedValue
from runner.templating.errors import TemplateError
from runner.util.strict_utf8 import InvalidUtf8, check_decoded
from runner.util.unsafe import UnsafeText, strip_unsafe


class _JSONEncoder(json.JSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, (datetime.date, datetime.datetime, datetime.time)):
            return o.isoformat()
        if isinstance(o, (set, frozenset, tuple)):
            return list(o)
        if isinstance(o, bytes):
            return o.decode("utf-8", errors="replace")
        return super().default(o)


# Ansible 2.19's JSON profiles (``from_json(profile=...)``, ``to_json(profile=...)``). The legacy ones read the
# markers older Ansible wrote for untrusted text and inline vault values; the others differ from plain JSON only
# in 2.19's data tags and module wire formats, which this runner's values do not carry.
LEGACY_PROFILES = frozenset({"legacy", "inventory_legacy"})
PLAIN_PROFILES = frozenset({"tagless", "fallback_to_str", "cache_persistence", "module_legacy_c2m",
                            "module_legacy_m2c", "module_modern_c2m", "module_modern_m2c"})


def _checked_profile(profile: str | None) -> str:
    name = profile or "tagless"
    if name not in LEGACY_PROFILES | PLAIN_PROFILES:
        raise TemplateError(f"unknown JSON profile {name!r}: expected one of "
                            f"{', '.join(sorted(LEGACY_PROFILES | PLAIN_PROFILES))}")
    return name


def legacy_markers(mapping: dict[str, Any]) -> Any:
    """``{"__ansible_unsafe": text}`` and ``{"__ansible_vault": ciphertext}`` as the values they stand for."""
    if len(mapping) == 1 and isinstance(mapping.get("__ansible_unsafe"), str):
        return UnsafeText(mapping["__ansible_unsafe"])
    if len(mapping) == 1 and isinstance(mapping.get("__ansible_vault"), str):
        return VaultEncryptedValue(mapping["__ansible_vault"], "<from_json>")
    return mapping


def to_json(value: Any, profile: str | None = None, *args: Any, **kwargs: Any) -> str:
    _checked_profile(profile)
    return json.dumps(value, *args, cls=_JSONEncoder, **kwargs)


def to_nice_json(value: Any, indent: int = 4, sort_keys: bool = True, *args: Any, **kwargs: Any) -> str:
    _checked_profile(kwargs.pop("profile", None))
    return json.dumps(value, *args, cls=_JSONEncoder, indent=indent, sort_keys=sort_keys,
                      separators=(",", ": "), **kwargs)


def from_json(value: Any, profile: str | None = None, *args: Any, **kwargs: Any) -> Any:
    if _checked_profile(profile) in LEGACY_PROFILES:
        kwargs.setdefault("object_hook", legacy_markers)
    try:
        decoded = json.loads(value, *args, **kwargs)
    except (TypeError, ValueError) as exc:
        raise TemplateError(f"from_json: not valid JSON: {exc}") from None
    try:
        return check_decoded(decoded)
    except InvalidUtf8 as exc:
        raise TemplateError(f"from_json: {exc}") from exc


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
