"""The custom statistics ``set_stats`` records, kept as ansible-core keeps them (per host, or for the whole run
under ``_run``) and printed after the recap when ``show_custom_stats`` is on."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from runner.util.hash_merge import merge_values

RUN = "_run"


class CustomStats:
    def __init__(self) -> None:
        self.custom: dict[str, dict[str, Any]] = {}

    def record(self, host: str, result: Mapping[str, Any]) -> None:
        """Add what a task's result (each item's, for a loop) asked set_stats to record."""
        items = result.get("results")
        for item in items if isinstance(items, list) else [result]:
            stats = item.get("ansible_stats") if isinstance(item, Mapping) else None
            if isinstance(stats, Mapping) and isinstance(stats.get("data"), Mapping) and stats["data"]:
                where = host if stats.get("per_host", True) else RUN
                for name, value in stats["data"].items():
                    self._set(where, name, value, aggregate=bool(stats.get("aggregate")))

    def _set(self, where: str, name: str, value: Any, *, aggregate: bool) -> None:
        recorded = self.custom.setdefault(where, {})
        if not aggregate or name not in recorded:
            recorded[name] = value
        elif isinstance(value, type(recorded[name])):  # ansible-core ignores a value of another type
            earlier = recorded[name]
            recorded[name] = merge_values(earlier, value) if isinstance(value, Mapping) else earlier + value

    def lines(self) -> list[str]:
        """The lines under the CUSTOM STATS banner: each host's, then the run's, in ansible-core's layout."""
        lines = [f"\t{host}: {_dumped(self.custom[host])}" for host in sorted(self.custom) if host != RUN]
        if RUN in self.custom:
            lines += ["", f"\tRUN: {_dumped(self.custom[RUN])}"]
        return [*lines, ""]


def _dumped(values: Mapping[str, Any]) -> str:
    return json.dumps(values, indent=1, sort_keys=True, ensure_ascii=False, default=str).replace("\n", "")
