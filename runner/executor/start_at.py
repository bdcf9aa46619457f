"""``--start-at-task``: the tasks of a play that come before the named one, which the run skips.

As in Ansible, the name is matched exactly or as a shell pattern, against the task's name and against its
``role : name`` title; only the plan's own tasks are searched (a task inside an include is not known until the
include runs, so ``--start-at-task`` follows imports but not includes). Fact gathering and handlers still run.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from runner.plan import Plan, PlanPlay, PlanTask


def titles(plan: Plan, node: PlanTask) -> list[str]:
    """The names a task answers to: its name (or module, when unnamed) and ``role : name`` in a role."""
    name = node.name or node.module or node.kind
    if node.role is None:
        return [name]
    return [name, f"{plan.roles[node.role].display_name} : {name}"]


def matches(plan: Plan, node: PlanTask, pattern: str) -> bool:
    return node.kind not in ("block", "facts") and any(
        title == pattern or fnmatchcase(title, pattern) for title in titles(plan, node))


def _in_order(plan: Plan, ids: list[int]) -> list[PlanTask]:
    """Task nodes in the order a host meets them: a block's tasks, then its rescue, then its always."""
    ordered: list[PlanTask] = []
    for task_id in ids:
        node = plan.tasks[task_id]
        if node.kind == "block":
            ordered += _in_order(plan, [*node.block, *node.rescue, *node.always])
        else:
            ordered.append(node)
    return ordered


def skipped_before(plan: Plan, play: PlanPlay, pattern: str) -> set[int] | None:
    """Ids of the play's tasks before the first that matches ``pattern``; None when none of them matches."""
    before: set[int] = set()
    for node in _in_order(plan, [task_id for section in play.sections for task_id in section]):
        if matches(plan, node, pattern):
            return before
        if node.kind != "facts":
            before.add(node.id)
    return None


def any_match(plan: Plan, pattern: str) -> bool:
    return any(skipped_before(plan, play, pattern) is not None for play in plan.plays)
