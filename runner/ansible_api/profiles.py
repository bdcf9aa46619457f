"""ansible-core 2.19's serialization profiles of module arguments and results, for Ansible-API modules.

A module may declare one in its ``METADATA`` (YAML in a string: ``serialization_profile: modern``), read only when
ansible-core's internal setting ``_ANSIBLE_MODULE_METADATA`` is on, as ansible-core reads it
(``executor/module_common.py``); otherwise, and without a declaration, it is ``legacy``. The profile decides how
values JSON has no type for travel to the module (``legacy``: dates and times as ISO 8601 text; ``modern``: as
typed objects the module reads back as ``date``, ``time`` and ``datetime``) and back.

What a 2.19 module returns may hold typed objects (``{"__ansible_type": ..., ...}``) whatever its profile: dates
(modern), tagged values, and its warnings and deprecations as summaries. ``decode_result`` turns them into what
ansible-core's controller registers: Python dates, plain values, warning texts and deprecation mappings.
"""

from __future__ import annotations

import ast
import datetime
import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any

import yaml

from runner.ansible_api.deprecations import deprecation_entry

PROFILES = ("legacy", "modern")
TYPE_KEY = "__ansible_type"
_TRUE = {"1", "true", "yes", "on", "y", "t"}


def metadata_enabled() -> bool:
    """ansible-core's ``_MODULE_METADATA`` setting, which has only an environment variable."""
    return os.environ.get("_ANSIBLE_MODULE_METADATA", "").strip().lower() in _TRUE


@lru_cache(maxsize=256)
def declared_profile(source: bytes) -> str:
    """The serialization profile ``source`` (a module's code) declares in ``METADATA``, ``legacy`` without one.
    A METADATA that is not a literal string of a YAML mapping, or an unknown profile, is ``legacy`` too: the
    module then runs as every module ran before 2.19."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "legacy"
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and node.targets[0].id == "METADATA"
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            try:
                metadata = yaml.safe_load(node.value.value)
            except yaml.YAMLError:
                return "legacy"
            profile = metadata.get("serialization_profile") if isinstance(metadata, dict) else None
            return profile if profile in PROFILES else "legacy"
    return "legacy"


def module_profile(source: bytes) -> str:
    """The profile a module runs with: its declared one when module metadata is read, else ``legacy``."""
    return declared_profile(source) if metadata_enabled() else "legacy"


def encode_arguments(value: Any, profile: str) -> Any:
    """``value`` (a module's arguments) as plain JSON data in ``profile``'s form of what JSON has no type for;
    the same object when it holds nothing of the kind (the common case: one walk, no copy)."""
    if isinstance(value, dict):
        items = {key: encode_arguments(item, profile) for key, item in value.items()}
        if all(items[key] is item for key, item in value.items()):
            return value
        return {_key(key): item for key, item in items.items()}
    if isinstance(value, (list, tuple)):
        copied = [encode_arguments(item, profile) for item in value]
        return value if all(a is b for a, b in zip(copied, value, strict=True)) else copied
    if isinstance(value, (set, frozenset)):
        return [encode_arguments(item, profile) for item in value]
    if isinstance(value, (datetime.date, datetime.time)):  # datetime.datetime is a date
        if profile != "modern":
            return value.isoformat()
        if isinstance(value, datetime.datetime):
            return {TYPE_KEY: "AnsibleSerializableDateTime", "iso8601": value.isoformat(), "fold": value.fold}
        if isinstance(value, datetime.time):
            return {TYPE_KEY: "AnsibleSerializableTime", "iso8601": value.isoformat(), "fold": value.fold}
        return {TYPE_KEY: "AnsibleSerializableDate", "iso8601": value.isoformat()}
    return value


def _key(key: Any) -> Any:
    # JSON's own conversion of the keys it takes (1 -> "1", None -> "null"), as both profiles keep it
    return key if isinstance(key, str) or not isinstance(key, (int, float, type(None))) else _json_key(key)


def _json_key(key: int | float | None) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return repr(key) if isinstance(key, float) else str(key)


# Keeps a text value a module deprecated (ansible-core's ``Deprecated`` tag) with its deprecation entry; the
# caller's, whose layer knows how such values are read (runner.util.unsafe.DeprecatedText)
DeprecatedTextFactory = Callable[[str, dict[str, Any]], str]


def decode_result(value: Any, deprecated_text: DeprecatedTextFactory | None = None) -> Any:
    """A module's result with ansible-core's typed objects made what its controller registers."""
    if isinstance(value, list):
        return [decode_result(item, deprecated_text) for item in value]
    if not isinstance(value, dict):
        return value
    kind = value.get(TYPE_KEY)
    if kind is None:
        return {key: decode_result(item, deprecated_text) for key, item in value.items()}
    if isinstance(kind, str) and kind.startswith("_AnsibleTagged"):
        return _tagged(value, deprecated_text)
    decoder = _DECODERS.get(kind) if isinstance(kind, str) else None
    if decoder is None:  # an object of a later ansible-core: kept as it came, without its type
        return {key: decode_result(item, deprecated_text) for key, item in value.items() if key != TYPE_KEY}
    return decoder(value)


def event_message(event: Any) -> str:
    """An event's message followed by those of the causes it follows, without repeats (ansible-core's brief
    message of an event)."""
    parts: list[str] = []
    while isinstance(event, dict) and len(parts) < 20:  # a chain is short; the bound guards a malformed one
        parts.append(str(event.get("msg") or ""))
        chain = event.get("chain")
        if not isinstance(chain, dict) or chain.get("follow") is False:
            break
        event = chain.get("event")
    message = parts.pop()
    for part in reversed(parts):
        message = part if part.endswith(message) else _joined(part, message)
    return message


def _joined(first: str, second: str) -> str:
    return f"{first.rstrip('. ')}: {second}"


def _plugin_info(value: dict[str, Any]) -> dict[str, Any]:
    kind = value.get("type")
    return {"resolved_name": value.get("resolved_name"), "type": kind.get("value") if isinstance(kind, dict) else kind}


def _deprecation(value: dict[str, Any]) -> dict[str, Any]:
    deprecator = value.get("deprecator")
    return deprecation_entry(
        event_message(value.get("event")),
        version=value.get("version"),
        date=value.get("date"),
        deprecator=_plugin_info(deprecator) if isinstance(deprecator, dict) else None,
    )


def _tagged(value: dict[str, Any], deprecated_text: DeprecatedTextFactory | None) -> Any:
    """A value with tags (its origin, a deprecation...): the value, as ansible-core's templates see it; a text one
    that is deprecated kept with its deprecation when the caller says how."""
    plain = decode_result(value.get("value"), deprecated_text)
    if deprecated_text is None or not isinstance(plain, str):
        return plain
    for tag in value.get("tags") or ():
        if isinstance(tag, dict) and tag.get(TYPE_KEY) == "Deprecated":
            deprecator = tag.get("deprecator")
            return deprecated_text(
                plain,
                deprecation_entry(
                    str(tag.get("msg") or ""),
                    version=tag.get("version"),
                    date=tag.get("date"),
                    deprecator=_plugin_info(deprecator) if isinstance(deprecator, dict) else None,
                ),
            )
    return plain


_DECODERS: dict[str, Any] = {
    "AnsibleSerializableDate": lambda value: datetime.date.fromisoformat(value["iso8601"]),
    "AnsibleSerializableTime": lambda value: datetime.time.fromisoformat(value["iso8601"]).replace(
        fold=value.get("fold", 0)
    ),
    "AnsibleSerializableDateTime": lambda value: datetime.datetime.fromisoformat(value["iso8601"]).replace(
        fold=value.get("fold", 0)
    ),
    "WarningSummary": lambda value: event_message(value.get("event")),
    "DeprecationSummary": _deprecation,
    "PluginInfo": _plugin_info,
    "PluginType": lambda value: value.get("value"),
}
