"""``provisioning-playbook PLAYBOOK --resume [RUN]``: continue a failed run where each host stopped.

The run records say which hosts finished which play (they are left out of it), where every other host stopped
(a failed host restarts at its failed task, a host the run stopped without a failure of its own just after the
last task it finished), which handlers its tasks had notified that had not run, and the variables it had
registered and set. A run whose plan changed since (see ``tasks_hash``) is refused unless ``--force``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from runner.errors import OptionError

if TYPE_CHECKING:
    from runner.executor.resume import HostPosition, ResumePlan
    from runner.plan import Plan
    from runner.records.progress import RecordedStep, RunProgress


def parse_resume(value: str | None, force: bool, start_at_task: str | None) -> int | bool | None:
    """``--resume`` as given: False when absent, None for the last run, else the run's number."""
    if value is None:
        if force:
            raise OptionError("--force goes with --resume (it resumes a run whose playbook changed)")
        return False
    if start_at_task is not None:
        raise OptionError("--resume and --start-at-task cannot be used together: --resume starts each host where "
                          "it stopped")
    if value == "last":
        return None
    if not value.isdigit():
        raise OptionError(f"--resume takes a run's number, got '{value}' (name the playbook before --resume)")
    return int(value)


def load_resume(plan: Plan, config: Any, project_dir: Path, run_id: int | None, *, force: bool,
                check: bool) -> ResumePlan:
    """Where each host resumes, from the records of ``run_id`` (or the last run of the plan's playbook). Every
    refusal is an OptionError (exit 5) that says why."""
    from runner.records import records_target
    from runner.records.database import RecordsError
    from runner.records.description import tasks_hash
    from runner.records.progress import run_progress
    from runner.records.reading import open_records

    playbook = str(Path(plan.playbook).resolve())
    target = records_target(config, project_dir.resolve())
    try:
        engine = open_records(target)
        try:
            with engine.connect() as connection:
                progress = run_progress(connection, playbook, run_id)
        finally:
            engine.dispose()
    except RecordsError as exc:
        raise OptionError(f"cannot resume: {exc.message}") from None
    if progress.check_mode != check:
        raise OptionError(f"cannot resume: run {progress.run_id} ran {'with' if progress.check_mode else 'without'}"
                          f" --check; resume it the same way")
    if progress.tasks_hash != tasks_hash(plan) and not force:
        raise OptionError(f"cannot resume run {progress.run_id}: the plan of {plan.playbook} changed since (a "
                          "task, play or role was added, removed, moved or edited; variables may change). "
                          "--force resumes anyway, matching tasks by their place in the plan")
    resume = resume_plan(plan, progress)
    click.echo(summary(plan, progress, resume), err=True)
    return resume


def resume_plan(plan: Plan, progress: RunProgress) -> ResumePlan:
    from runner.executor.resume import ResumePlan

    index_of = _play_indexes(plan, progress.plays)
    resume = ResumePlan(progress.run_id, values=progress.values, hidden=progress.hidden)
    for seq, hosts in progress.finished.items():
        if seq in index_of:
            resume.finished[index_of[seq]] = set(hosts)
    for host, steps in progress.steps.items():
        for seq in dict.fromkeys(step.play_seq for step in steps):
            index = index_of.get(seq)
            if index is None or host in resume.finished.get(index, ()):
                continue
            in_play = [step for step in steps if step.play_seq == seq]
            position = _position(in_play)
            if position is not None:
                resume.positions.setdefault(index, {})[host] = position
            notified = _notified(plan, in_play)
            if notified:
                resume.notified.setdefault(index, {})[host] = notified
    return resume


def _play_indexes(plan: Plan, recorded: Iterable[tuple[int, str]]) -> dict[int, int]:
    """Recorded play seq -> the plan's play index, matched by position (the n-th play at a position to the n-th)."""
    by_position: dict[str, list[int]] = {}
    for index, play in enumerate(plan.plays):
        by_position.setdefault(play.position, []).append(index)
    matched: dict[int, int] = {}
    for seq, position in recorded:
        candidates = by_position.get(position)
        if candidates:
            matched[seq] = candidates.pop(0)
    return matched


def _position(steps: list[RecordedStep]) -> HostPosition | None:
    """At the host's task that stopped it, else just after the last task it ran (handlers aside)."""
    from runner.executor.resume import HostPosition, parse_uid

    for step in reversed([step for step in steps if not step.is_handler]):
        key = parse_uid(step.uid)
        if key is not None:
            return HostPosition(key, inclusive=step.stopped)
    return None


def _notified(plan: Plan, steps: list[RecordedStep]) -> list[str]:
    """Handlers the host's changed tasks notified after its last handler ran: they had not run for it. Only the
    plan's own tasks are known here (a task inside a dynamic include is compiled when the include runs)."""
    from runner.executor.resume import parse_uid

    pending: list[str] = []
    for step in steps:
        if step.is_handler:
            pending = []
            continue
        key = parse_uid(step.uid)
        if not step.changed or step.stopped or key is None or len(key) != 1 or key[0] >= len(plan.tasks):
            continue
        pending += [name for name in plan.tasks[key[0]].notify if name not in pending]
    return pending


def summary(plan: Plan, progress: RunProgress, resume: ResumePlan) -> str:
    """One line per host that goes on, naming where; one for the hosts left out as finished."""
    lines = [f"Resuming run {progress.run_id} of {plan.playbook} ({progress.status})"]
    for index, positions in sorted(resume.positions.items()):
        for host, position in positions.items():
            step = next((s for s in reversed(progress.steps[host]) if not s.is_handler), None)
            where = f"'{step.name}'" if step is not None else "its last task"
            lines.append(f"  {host}: play {index + 1}, {'at' if position.inclusive else 'after'} {where}")
    done = sorted({h for hosts in resume.finished.values() for h in hosts}
                  - {h for positions in resume.positions.values() for h in positions})
    if done:
        lines.append(f"  left out of the plays they finished: {', '.join(done)}")
    return "\n".join(lines)
