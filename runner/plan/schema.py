"""The plan's JSON Schema, generated from the plan's types: ``python -m runner.plan.schema [--check]``.

``schemas/plan.schema.json`` describes what ``provisioning-playbook --plan FILE`` writes, for tools that read
plans; the committed copy is checked to be current by the unit tests (``--check`` does the same).
"""

from __future__ import annotations

import sys
from pathlib import Path

from runner.models import schemas
from runner.plan.model import PLAN_VERSION, Plan

SCHEMA_FILE = "plan.schema.json"
TABLE: schemas.SchemaTable = {
    SCHEMA_FILE: (f"A compiled execution plan (version {PLAN_VERSION}), as provisioning-playbook --plan writes it",
                  Plan),
}


def stale(directory: Path = schemas.SCHEMA_DIR) -> list[str]:
    return schemas.stale(directory, TABLE)


def main(argv: list[str] | None = None) -> int:
    return schemas.main(argv, TABLE, prog="python -m runner.plan.schema", description=__doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
