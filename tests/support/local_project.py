"""A playbook project in a directory, run on the controller itself (local connection), for tests of what a
playbook finds beside it: plugin folders, roles, collections."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from tests.support.playbook_run import PlaybookRun, run_playbook

COLLECTIONS = Path(__file__).resolve().parents[1] / "data" / "collections"


def write_files(base: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path: dedented text) under ``base``."""
    for relative, text in files.items():
        path = base / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def play_locally(project: Path, playbook: str, *args: str, collections: Path | None = COLLECTIONS) -> PlaybookRun:
    """Run ``playbook`` (YAML text) as ``project/site.yml`` on localhost over the local connection, with the tests'
    collections (tests/data/collections) as the collections path."""
    inventory = project / "inventory.json"
    # The controller's Python, as for the implicit localhost: an inventory's localhost is discovered otherwise, with
    # Ansible's warning.
    localhost = {"ansible_connection": "local", "ansible_python_interpreter": sys.executable}
    inventory.write_text(json.dumps({"all": {"hosts": {"localhost": localhost}}}))
    write_files(project, {"site.yml": playbook})
    env = {"PROVISIONING_COLLECTIONS_PATH": str(collections)} if collections else {}
    return run_playbook(inventory, project / "site.yml", *args, env=env)
