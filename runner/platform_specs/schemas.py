"""JSON Schemas of the seed files, generated from the models: ``python -m runner.platform_specs.schemas [--check]``.

One file per kind (``runner.platform_specs.files.SEED_KINDS``) in schemas/seeds/, written and checked with the same
functions as the playbook language's schemas; the unit tests fail when a committed file is not current.
"""

from __future__ import annotations

import sys
from typing import Any

from runner.models import schemas
from runner.platform_specs.files import SEED_KINDS

SCHEMA_DIR = schemas.SCHEMA_DIR / "seeds"
SCHEMAS: dict[str, tuple[str, Any]] = {f"{kind}.schema.json": entry for kind, entry in SEED_KINDS.items()}
PROG = "python -m runner.platform_specs.schemas"


def stale() -> list[str]:
    return schemas.stale(SCHEMA_DIR, SCHEMAS)


def main(argv: list[str] | None = None) -> int:
    # schemas/seeds/ unless --dir says otherwise (argparse keeps the last --dir given).
    arguments = sys.argv[1:] if argv is None else argv
    return schemas.main(["--dir", str(SCHEMA_DIR), *arguments], SCHEMAS, PROG, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
