"""Summaries of the measurements: medians, ratios to our runner, marginal cost per host-task; table and JSON."""

from __future__ import annotations

import json
import os
import platform
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from measure import Measurement

# workload.yml: six tasks, one of them a loop over three items
TASK_EXECUTIONS_PER_HOST = 9
# The summary values ratios are taken of, and how the table names them
RATIO_LABELS = {"first_s": "first run (cold)", "second_s": "second run warm", "second_cold_s": "second run cold",
                "first_cpu_s": "CPU of first run"}


@dataclass
class RunnerResults:
    """Everything measured for one runner; ``error`` says why it stopped early, if it did."""

    runner: str
    version: str
    hosts: int
    first: list[Measurement] = field(default_factory=list)
    second: list[Measurement] = field(default_factory=list)  # warm: right after the first run
    second_cold: list[Measurement] = field(default_factory=list)  # nothing kept from the first run
    first_changes: list[int | None] = field(default_factory=list)
    second_changes: list[int | None] = field(default_factory=list)
    smaller_hosts: int = 0
    smaller_first: list[Measurement] = field(default_factory=list)
    error: str | None = None

    def summary(self) -> dict[str, Any]:
        return {
            "first_s": _median(self.first),
            "second_s": _median(self.second),
            "second_cold_s": _median(self.second_cold),
            "first_cpu_s": _median(self.first, "cpu_seconds"),
            "peak_tree_mib": max((m.peak_tree_mib for m in self.first + self.second), default=None),
            "max_rss_mib": max((m.max_rss_mib for m in self.first + self.second), default=None),
            "ms_per_host_task": marginal_ms_per_host_task(self.hosts, _median(self.first),
                                                          self.smaller_hosts, _median(self.smaller_first)),
        }


def _median(measurements: list[Measurement], attribute: str = "seconds") -> float | None:
    return statistics.median(getattr(m, attribute) for m in measurements) if measurements else None


def marginal_ms_per_host_task(hosts: int, seconds: float | None, fewer_hosts: int,
                              fewer_seconds: float | None) -> float | None:
    """What one more host-task costs: the slope between two host counts running the same workload."""
    if seconds is None or fewer_seconds is None or hosts <= fewer_hosts:
        return None
    return (seconds - fewer_seconds) / ((hosts - fewer_hosts) * TASK_EXECUTIONS_PER_HOST) * 1000


def ratios(results: list[RunnerResults], baseline: str = "ours") -> dict[str, dict[str, float]]:
    """Each other runner's medians divided by the baseline's: wall time of both runs, CPU time of the first."""
    summaries = {result.runner: result.summary() for result in results if result.error is None}
    if baseline not in summaries:
        return {}
    base = summaries[baseline]
    found = {}
    for runner, summary in summaries.items():
        if runner == baseline:
            continue
        found[runner] = {run: summary[run] / base[run] for run in RATIO_LABELS
                         if summary[run] is not None and base[run]}
    return found


def machine() -> dict[str, Any]:
    model = ""
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as meminfo:
        total_kib = int(meminfo.readline().split()[1])
    # other work on the machine skews every runner's times: the load average says how busy it was
    return {"nproc": os.cpu_count(), "memory_gib": round(total_kib / 1024 / 1024, 1), "cpu": model,
            "kernel": platform.release(), "python": platform.python_version(), "loadavg": os.getloadavg()}


def describe_machine(facts: dict[str, Any]) -> str:
    load = "/".join(f"{value:.1f}" for value in facts["loadavg"])
    return (f"machine: {facts['nproc']} CPUs ({facts['cpu']}), {facts['memory_gib']} GiB, "
            f"Python {facts['python']}, load average {load}")


def _cell(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _changes(values: list[int | None]) -> str:
    return "/".join("?" if value is None else str(value) for value in values) or "-"


def table(results: list[RunnerResults]) -> str:
    header = ("runner", "version", "hosts", "first (s)", "2nd warm (s)", "2nd cold (s)", "CPU 1st (s)",
              "tree PSS (MiB)", "max RSS (MiB)", "ms/host-task", "changes 1st", "changes 2nd")
    rows = [header]
    for result in results:
        summary = result.summary()
        rows.append((result.runner, result.version, str(result.hosts), _cell(summary["first_s"]),
                     _cell(summary["second_s"]), _cell(summary["second_cold_s"]), _cell(summary["first_cpu_s"]),
                     _cell(summary["peak_tree_mib"], 0),
                     _cell(summary["max_rss_mib"], 0), _cell(summary["ms_per_host_task"]),
                     _changes(result.first_changes), _changes(result.second_changes)))
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * width for width in widths))
    for result in results:
        if result.error:
            lines.append(f"{result.runner}: FAILED: {result.error}")
    for runner, found in ratios(results).items():
        parts = [f"{RATIO_LABELS[run]} {value:.1f}x" for run, value in found.items()]
        lines.append(f"{runner} / ours: " + ", ".join(parts))
    return "\n".join(lines)


def write_json(path: Path, parameters: dict[str, Any], results: list[RunnerResults]) -> None:
    document = {
        "machine": machine(),
        "parameters": {**parameters, "task_executions_per_host": TASK_EXECUTIONS_PER_HOST},
        "runners": [{**asdict(result), "summary": result.summary()} for result in results],
        "ratios_to_ours": ratios(results),
    }
    path.write_text(json.dumps(document, indent=2) + "\n")
