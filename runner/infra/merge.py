"""A server's settings once the infra's defaults are merged in.

Lowest first: the provider's own defaults (the settings models' field defaults), ``defaults`` (every server),
``defaults.<provider>`` (that provider's servers), the server itself. Only settings written at a level count
there. Values replace lower ones, except ``vars`` (merged name by name), ``labels`` (added, each once) and
``taskservs`` (added; one of the same name replaces the lower one in its place).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.infra.defaults import Defaults
from runner.infra.servers import AnyServer, ServerSettings, TaskservRef


def merged_server(server: AnyServer, defaults: Defaults, base: Path) -> AnyServer:
    """``server`` over the defaults that apply to it; a relative ``ssh_key`` is taken from ``base``."""
    layers = [defaults, defaults.for_provider(server.provider), server]
    values: dict[str, Any] = {}
    for layer in layers:
        if layer is not None:
            for field in written(layer, type(server)):
                values[field] = _combine(field, values.get(field), getattr(layer, field))
    ssh_key = values.get("ssh_key")
    if isinstance(ssh_key, str):
        values["ssh_key"] = str(base / Path(ssh_key).expanduser())
    return server.model_copy(update=values)


def written(layer: ServerSettings, target: type[ServerSettings]) -> list[str]:
    """The settings written at ``layer`` that a server of type ``target`` has."""
    return [field for field in layer.model_fields_set
            if field in target.model_fields and field not in target.DERIVED]


def _combine(field: str, lower: Any, upper: Any) -> Any:
    if lower is None:
        return upper
    if field == "vars":
        return {**lower, **upper}
    if field == "labels":
        return list(dict.fromkeys([*lower, *upper]))
    if field == "taskservs":
        return _merge_taskservs(lower, upper)
    return upper


def _merge_taskservs(lower: list[TaskservRef], upper: list[TaskservRef]) -> list[TaskservRef]:
    by_name = {taskserv.name: taskserv for taskserv in upper}
    kept = [by_name.pop(taskserv.name, taskserv) for taskserv in lower]
    return kept + [taskserv for taskserv in upper if taskserv.name in by_name]
