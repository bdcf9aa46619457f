"""Deprecations in a task's result as ansible-core 2.19 gives them (``deprecations``), and its words for them.

An entry is ``{"msg", "collection_name", "deprecator": {"resolved_name", "type"}, "date"}`` or, without a date,
``"version"`` instead of ``"date"`` (None when neither was given). ``collection_name`` is the deprecator's
collection (the first two parts of its name). A result's entries in the older form (``msg``, ``version``,
``date``, ``collection_name``; any module may return them) are made this form, as ansible-core's executor makes
them (``TaskExecutor._apply_task_result_compat``).
"""

from __future__ import annotations

from typing import Any


def deprecation_entry(
    msg: str, *, version: str | None = None, date: str | None = None, deprecator: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A deprecation as ansible-core's result holds it."""
    name = (deprecator or {}).get("resolved_name")
    collection = ".".join(str(name).split(".")[:2]) if name and name != "indeterminate" else None
    entry: dict[str, Any] = {"msg": msg, "collection_name": collection}
    if date:
        entry["date"] = date
    else:
        entry["version"] = version
    entry["deprecator"] = deprecator
    return entry


def normalized_deprecations(entries: Any) -> Any:
    """A result's ``deprecations`` with each mapping in ansible-core's form; anything else is left as it is."""
    if not isinstance(entries, list):
        return entries
    return [_normalized(entry) if isinstance(entry, dict) else entry for entry in entries]


def with_normalized_deprecations(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with its ``deprecations``, and those of its loop's items, in ansible-core's form."""
    if result.get("deprecations"):
        result["deprecations"] = normalized_deprecations(result["deprecations"])
    items = result.get("results")
    if isinstance(items, list):
        for item in items:
            if isinstance(item, dict) and item.get("deprecations"):
                item["deprecations"] = normalized_deprecations(item["deprecations"])
    return result


def _normalized(entry: dict[str, Any]) -> dict[str, Any]:
    deprecator = entry.get("deprecator")
    if "deprecator" not in entry:  # the older form: the deprecator is the collection it names
        collection = entry.get("collection_name")
        deprecator = {"resolved_name": str(collection), "type": None} if collection else None
    elif deprecator is not None and not isinstance(deprecator, dict):
        deprecator = None
    return deprecation_entry(
        str(entry.get("msg", "")), version=entry.get("version"), date=entry.get("date"), deprecator=deprecator
    )


def deprecation_message(entry: Any) -> str:
    """A result's deprecation as ansible-core words it after ``[DEPRECATION WARNING]:``
    (``get_deprecation_message_with_plugin_info``)."""
    if not isinstance(entry, dict):
        return str(entry)
    deprecator = entry.get("deprecator")
    if not isinstance(deprecator, dict):
        collection = entry.get("collection_name")
        deprecator = {"resolved_name": collection, "type": None} if collection else None
    name, kind = (str(deprecator.get("resolved_name") or ""), deprecator.get("type")) if deprecator else ("", None)
    if not kind:  # a collection's (or nobody's): no plugin named
        collection, plugin = name or None, ""
    else:
        kind_name = str(kind) if kind == "module" else f"{kind} plugin"
        if name == "ansible.builtin":  # ansible-core's own API
            collection, plugin = name, f"the {kind_name} API"
        else:
            parts = name.split(".")
            collection = ".".join(parts[:2]) if len(parts) > 2 else None
            plugin = f"{kind_name} {parts[-1]!r}"
    if collection and plugin:
        plugin += " in"
    source = "ansible-core" if collection == "ansible.builtin" else f"collection {collection!r}" if collection else ""
    date, version = entry.get("date"), entry.get("version")
    if not collection:
        when = "in the future"
    elif date:
        when = f"in a release after {date}"
    elif version:
        when = f"version {version}"
    else:
        when = "in a future release"
    removal = (
        " ".join(
            part
            for part in ("This feature will be removed", "from" if plugin or source else "", plugin, source, when)
            if part
        )
        + "."
    )
    return _sentences(str(entry.get("msg") or ""), removal)


def _sentences(first: str, second: str) -> str:
    """Two sentences joined, the first given its full stop (ansible-core's ``join_sentences``)."""
    first = first.strip()
    if first and first[-1] not in "!?.":
        first += "."
    return f"{first} {second}" if first else second
