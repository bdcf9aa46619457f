"""The plan as a JSON document: what ``--plan FILE`` writes and what run records hash."""

from __future__ import annotations

from typing import Any

from runner.plan.model import Plan


def plan_document(plan: Plan) -> dict[str, Any]:
    """Inline vault values stay encrypted; values of encrypted files are masked."""
    from runner.secrets.censor import censor
    from runner.secrets.encrypted import sealed_or_refused

    return censor(plan.model_dump(mode="json", fallback=sealed_or_refused))
