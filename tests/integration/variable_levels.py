"""A project that sets variables at every level of Ansible's precedence, for both runners to run.

For each level L (lowest first) the project defines the variable ``at_<L>`` at L and at every level below it,
each time with the name of the level that sets it as the value: a run must print ``at_<L> = <L>`` for every L,
which shows that each level wins over all the levels below it, the level just below included. The same
project runs unchanged under ansible-core (``ansible-playbook -i inventory site.yml -e @extra_vars.json``), which
is where the expectations come from.

Levels outside the scheme, because nothing but Ansible's own names live there: host facts (``ansible_system``
and ``ansible_os_family`` are set around them), command line values such as ``-u`` (not variables: they are
covered by the connection variable tests) and ``vars_prompt`` (not supported).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml

# Lowest first: Ansible's documented order, as ansible-core 2.19 behaves (include_vars below set_fact).
LEVELS = (
    "role_defaults",
    "inventory_file_group_vars",
    "inventory_group_vars_all",
    "playbook_group_vars_all",
    "inventory_group_vars",
    "playbook_group_vars",
    "inventory_file_host_vars",
    "inventory_host_vars",
    "playbook_host_vars",
    "play_vars",
    "play_vars_files",
    "role_vars",
    "block_vars",
    "task_vars",
    "include_vars",
    "set_fact",
    "role_params",
    "include_params",
    "extra_vars",
)

# Around the facts level: a fact wins over playbook host_vars and loses to play vars.
FACT_EXPECTATIONS = {"ansible_system": "Linux", "ansible_os_family": "play_vars"}


def values_at(level: str) -> dict[str, str]:
    """The variables one level sets: ``at_<L>`` for L from this level up, each set to this level's name."""
    return {f"at_{above}": level for above in LEVELS[LEVELS.index(level):]}


def expected() -> dict[str, Any]:
    return {**{f"at_{level}": level for level in LEVELS}, **FACT_EXPECTATIONS}


def _yaml(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def _ini_vars(values: dict[str, str], separator: str = " ") -> str:
    return separator.join(f"{key}={value}" for key, value in values.items())


def write_project(root: Path, host: str, connection_vars: dict[str, str]) -> Path:
    """The project under ``root`` for ``host`` (reached with ``connection_vars``); returns the playbook."""
    inventory = root / "inventory"
    inventory.mkdir(parents=True)
    host_line = _ini_vars({**connection_vars, **values_at("inventory_file_host_vars")})
    group_lines = _ini_vars(values_at("inventory_file_group_vars"), "\n")
    (inventory / "hosts.ini").write_text(f"[levels]\n{host} {host_line}\n\n[levels:vars]\n{group_lines}\n")
    _yaml(inventory / "group_vars" / "all.yml", values_at("inventory_group_vars_all"))
    _yaml(inventory / "group_vars" / "levels.yml", values_at("inventory_group_vars"))
    _yaml(inventory / "host_vars" / f"{host}.yml", values_at("inventory_host_vars"))
    _yaml(root / "group_vars" / "all.yml", values_at("playbook_group_vars_all"))
    _yaml(root / "group_vars" / "levels.yml", values_at("playbook_group_vars"))
    _yaml(root / "host_vars" / f"{host}.yml",
          {**values_at("playbook_host_vars"), "ansible_system": "playbook_host_vars",
           "ansible_os_family": "playbook_host_vars"})
    _yaml(root / "vars_file.yml", values_at("play_vars_files"))
    (root / "extra_vars.json").write_text(json.dumps(values_at("extra_vars")))
    role = root / "roles" / "levels"
    _yaml(role / "defaults" / "main.yml", values_at("role_defaults"))
    _yaml(role / "vars" / "main.yml", values_at("role_vars"))
    _yaml(role / "vars" / "included.yml", values_at("include_vars"))
    # set_fact runs before include_vars: the later include_vars must still lose.
    _yaml(role / "tasks" / "main.yml", [
        {"name": "set facts", "set_fact": values_at("set_fact")},
        {"name": "include vars", "include_vars": "included.yml"},
        {"name": "include report", "include_tasks": "report.yml", "vars": values_at("include_params")},
    ])
    names = [*(f"at_{level}" for level in LEVELS), *FACT_EXPECTATIONS]
    report = "{{ {" + ", ".join(f"'{name}': {name}" for name in names) + "} }}"
    _yaml(role / "tasks" / "report.yml", [
        {"block": [{"name": "report", "debug": {"msg": report}, "vars": values_at("task_vars")}],
         "vars": values_at("block_vars")},
    ])
    playbook = root / "site.yml"
    _yaml(playbook, [{
        "name": "levels", "hosts": host, "gather_facts": True, "gather_subset": ["!all"],
        "vars": {**values_at("play_vars"), "ansible_os_family": "play_vars"},
        "vars_files": ["vars_file.yml"],
        "roles": [{"role": "levels", **values_at("role_params")}],
    }])
    return playbook
