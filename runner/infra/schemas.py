"""The JSON Schemas of infra files and of ``provisioning-infra``'s ``--out json`` documents, generated from the
models: ``python -m runner.infra.schemas [--check]``.

Written to schemas/ (infra.schema.json, infra-*.schema.json) beside the playbook language's schemas, with the
same functions.
"""

from __future__ import annotations

import sys
from typing import Any

from runner.infra.image_outputs import IMAGE_OUTPUT_SCHEMAS
from runner.infra.models import Infra
from runner.infra.outputs import OUTPUT_SCHEMAS
from runner.models import schemas

SCHEMAS: dict[str, tuple[str, Any]] = {
    "infra.schema.json": ("An infra file: servers, their defaults, clusters and provider settings", Infra),
    **OUTPUT_SCHEMAS,
    **IMAGE_OUTPUT_SCHEMAS,
}
PROG = "python -m runner.infra.schemas"


def stale() -> list[str]:
    return schemas.stale(schemas.SCHEMA_DIR, SCHEMAS)


def main(argv: list[str] | None = None) -> int:
    return schemas.main(argv, SCHEMAS, PROG, __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
