"""The execution plan: what the compiler produces and the executor runs.

A plain, versioned, JSON-serialisable structure: plays (host pattern, play keywords, sections of top-level task
ids, handler ids) over one flat table of task nodes and one table of variable scopes. ``--plan FILE`` writes it;
``schemas/plan.schema.json`` describes it.
"""

from runner.plan.model import (
    ARGUMENT_TEMPLATES,
    PLAN_VERSION,
    Plan,
    PlanFragment,
    PlanPlay,
    PlanRole,
    PlanTask,
    ScopeKind,
    VarScope,
    handler_names,
    handler_topics,
)

__all__ = ["ARGUMENT_TEMPLATES", "PLAN_VERSION", "Plan", "PlanFragment", "PlanPlay", "PlanRole", "PlanTask",
           "ScopeKind", "VarScope", "handler_names", "handler_topics"]
