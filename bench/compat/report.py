"""Results: one line per target as it ends, the closing count, a JSON file, and the per-group table."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

from bench.compat.execute import Outcome
from bench.compat.selection import GROUP_TITLES, GROUPS


def line(outcome: Outcome) -> str:
    verdict = "PASS" if outcome.passed else "FAIL"
    rc = "killed" if outcome.rc is None else f"rc={outcome.rc}"
    extra = f"  {outcome.detail}" if outcome.detail else ""
    return f"{verdict} {outcome.target:<40} {rc:<7} {outcome.seconds:6.1f}s  {outcome.log}{extra}"


def summary(outcomes: list[Outcome]) -> str:
    passed = sum(outcome.passed for outcome in outcomes)
    return f"{passed} passed, {len(outcomes) - passed} failed"


class Results:
    """``results.json`` of a run, rewritten (atomically) after every target, so an interrupted run keeps what
    it measured and ``--resume`` goes on from there."""

    def __init__(self, path: Path, runner: str, version: str, resume: bool, targets_version: str = "",
                 timeout: float | None = None):
        self.path = path
        self.lock = threading.Lock()
        previous = json.loads(path.read_text()) if resume and path.exists() else {}
        if previous and previous.get("runner") != runner:
            raise SystemExit(f"{path} holds results of the {previous.get('runner')} runner, not {runner}")
        if previous and targets_version and previous.get("targets_version", targets_version) != targets_version:
            raise SystemExit(f"{path} holds results of ansible-core {previous['targets_version']}'s targets, "
                             f"not {targets_version}'s")
        self.data = {"runner": runner, "version": version, "date": datetime.now(UTC).strftime("%Y-%m-%d"),
                     "targets_version": targets_version, "timeout": timeout, "targets": previous.get("targets", {})}

    def done(self, retry_killed: bool = False) -> set[str]:
        """The targets measured already; with ``retry_killed``, less those killed at the time limit."""
        targets = self.data["targets"]
        return {name for name, result in targets.items() if not (retry_killed and result["rc"] is None)}

    def record(self, outcome: Outcome) -> None:
        with self.lock:
            self.data["targets"][outcome.target] = {"passed": outcome.passed, "rc": outcome.rc,
                                                    "seconds": round(outcome.seconds, 1), "detail": outcome.detail}
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n")
            tmp.replace(self.path)


def group_table(groups: dict[str, list[str]], ours_path: Path, ansible_path: Path) -> str:
    """Markdown: per group, the targets run, how many pass with ansible-core and with ours, and how many of
    those ansible-core passes ours passes too."""
    ours = json.loads(ours_path.read_text())
    ansible = json.loads(ansible_path.read_text())
    rows = ["| group | targets | ansible-core passes | ours passes | ours, of ansible-core's passes |",
            "|---|---:|---:|---:|---:|"]
    totals = [0, 0, 0, 0]
    for group in GROUPS:
        names = [name for name in groups.get(group, []) if name in ours["targets"] and name in ansible["targets"]]
        baseline = {name for name in names if ansible["targets"][name]["passed"]}
        mine = {name for name in names if ours["targets"][name]["passed"]}
        counts = [len(names), len(baseline), len(mine), len(mine & baseline)]
        totals = [total + count for total, count in zip(totals, counts, strict=True)]
        rows.append(_row(GROUP_TITLES[group], counts))
    rows.append(_row("**all**", totals))
    heading = (f"ansible-core {ansible['version']} ({ansible['date']}) beside ours {ours['version']} "
               f"({ours['date']})\n\n")
    return heading + "\n".join(rows) + "\n"


def _row(title: str, counts: list[int]) -> str:
    run, baseline, mine, both = counts
    return (f"| {title} | {run} | {baseline} ({_percent(baseline, run)}) | {mine} ({_percent(mine, run)}) "
            f"| {both}/{baseline} ({_percent(both, baseline)}) |")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def list_table(groups: dict[str, list[str]], ours: set[str], baseline: set[str], version: str,
               failing: set[str] | None = None, across: Mapping[str, set[str]] | None = None) -> str:
    """Markdown: per group, ansible-core's passes (its baseline file), ours (expected.txt), and ours among
    ansible-core's, the intersection; after the total, a row for each set of ``across`` (a title and the targets
    it holds, whatever their group), counted over the selected ones; then the targets ours passes that
    ansible-core fails here (``failing``: measured and failed), which the intersection leaves out, and the
    selected targets ansible-core was not run on."""
    rows = [f"| group | targets | ansible-core {version} passes | ours passes (expected.txt) "
            "| ours, of ansible-core's passes |",
            "|---|---:|---:|---:|---:|"]
    totals = [0, 0, 0, 0]
    for group in GROUPS:
        names = set(groups.get(group, []))
        counts = [len(names), len(names & baseline), len(names & ours), len(names & ours & baseline)]
        totals = [total + count for total, count in zip(totals, counts, strict=True)]
        rows.append(_list_row(GROUP_TITLES[group], counts))
    rows.append(_list_row("**all**", totals))
    selected = {name for names in groups.values() for name in names}
    for title, members in (across or {}).items():
        names = members & selected
        rows.append(_list_row(title, [len(names), len(names & baseline), len(names & ours),
                                      len(names & ours & baseline)]))
    failing = selected - baseline if failing is None else failing & selected
    only_ours = sorted((ours - baseline) & failing)
    note = f"\nOurs passes, ansible-core {version} fails here: {', '.join(only_ours) or 'none'}.\n"
    not_run = sorted(selected - baseline - failing)
    if not_run:
        note += f"Not measured with ansible-core {version} ({len(not_run)}): {', '.join(not_run)}.\n"
    return "\n".join(rows) + "\n" + note


def _list_row(title: str, counts: list[int]) -> str:
    run, baseline, mine, both = counts
    return f"| {title} | {run} | {baseline} | {mine} | {both}/{baseline} ({_percent(both, baseline)}) |"
