"""JSON Schemas of the playbook language, generated from the models: ``python -m runner.models.schemas``.

They describe files as written (a task's module key, ``yes`` for a boolean, one string for a list), for editors
and CI; the committed copies in schemas/ are checked to be current by the unit tests (``--check`` does the same).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from runner.models.block import TaskList
from runner.models.play import PlayList
from runner.models.role import ArgumentSpecs, RoleMeta

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"
DIALECT = "https://json-schema.org/draft/2020-12/schema"

# file name → (what the file describes, the type it is read into)
SCHEMAS: dict[str, tuple[str, Any]] = {
    "playbook.schema.json": ("A playbook: a list of plays and import_playbook entries", PlayList),
    "tasks.schema.json": ("A task file: tasks/main.yml of a role, or a file for include_tasks/import_tasks", TaskList),
    "role-meta.schema.json": ("A role's meta/main.yml", RoleMeta),
    "argument-specs.schema.json": ("A role's meta/argument_specs.yml", ArgumentSpecs),
}


# Other model families (infra files, seeds) keep their own table and reuse these functions with it.
SchemaTable = dict[str, tuple[str, Any]]


def schema_for(name: str, table: SchemaTable = SCHEMAS) -> dict[str, Any]:
    title, target = table[name]
    schema = TypeAdapter(target).json_schema(mode="validation")
    return {"$schema": DIALECT, "$id": name, "title": title, **schema}


def render(name: str, table: SchemaTable = SCHEMAS) -> str:
    return json.dumps(schema_for(name, table), indent=2) + "\n"


def stale(directory: Path = SCHEMA_DIR, table: SchemaTable = SCHEMAS) -> list[str]:
    """Schema files that are missing or differ from what the models generate."""
    return [name for name in table
            if not (directory / name).is_file()
            or (directory / name).read_text(encoding="utf-8") != render(name, table)]


def write(directory: Path = SCHEMA_DIR, table: SchemaTable = SCHEMAS) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in table:
        path = directory / name
        path.write_text(render(name, table), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str] | None = None, table: SchemaTable = SCHEMAS, prog: str = "python -m runner.models.schemas",
         description: str = __doc__.splitlines()[0]) -> int:
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--check", action="store_true", help="only report schemas that are not current (exit 1)")
    parser.add_argument("--dir", type=Path, default=SCHEMA_DIR, help="where the schema files are (default: schemas/)")
    options = parser.parse_args(argv)
    if options.check:
        outdated = stale(options.dir, table)
        for name in outdated:
            print(f"{options.dir / name} is not current; run {prog}", file=sys.stderr)
        return 1 if outdated else 0
    for path in write(options.dir, table):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
