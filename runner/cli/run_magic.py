"""The magic variables that are the same for every host and task of a run, as Ansible defines them: where the
controller's Python is, the configuration file, the forks, the limit, the inventory sources and the tags asked
for. They come from the command line and the configuration, which only the commands hold."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from runner.cli.project import Project, resolve_inventory_sources


def run_magic_variables(project: Project, options: dict[str, Any], *, tags: Sequence[str] = (),
                        skip_tags: Sequence[str] = ()) -> dict[str, Any]:
    """``ansible_playbook_python`` and the other run-wide magic variables; ``ansible_limit`` only when the run
    has a limit, as in Ansible."""
    config = project.config
    values: dict[str, Any] = {
        # Inventories set ansible_python_interpreter to it for their local hosts.
        "ansible_playbook_python": sys.executable,
        "ansible_config_file": str(config.path) if config.path is not None else None,
        "ansible_forks": config.forks,
        "ansible_inventory_sources": [_absolute(source) for source in resolve_inventory_sources(config)],
        "ansible_run_tags": list(tags) or ["all"],
        "ansible_skip_tags": list(skip_tags),
    }
    if options.get("limit"):
        values["ansible_limit"] = options["limit"]
    return values


def _absolute(source: str) -> str:
    """A source that is a path, made absolute as Ansible shows it; a host list (``a,b``) as given."""
    return os.path.abspath(source) if os.path.exists(source) else source
