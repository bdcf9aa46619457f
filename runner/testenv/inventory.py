"""The inventory an env writes for its hosts: YAML, group ``testhosts``, everything needed to log in."""

from __future__ import annotations

import io
from pathlib import Path

from ruamel.yaml import YAML

from runner.util.files import atomic_write_text

GROUP = "testhosts"
INTERPRETER = "/usr/bin/python3"


def access_vars(private_key: Path, known_hosts: Path) -> dict[str, str]:
    """The variables that log in to an env's hosts: root with the env's key, its known_hosts, the machine's Python."""
    return {
        "ansible_user": "root",
        "ansible_ssh_private_key_file": str(private_key),
        "provisioning_ssh_known_hosts_file": str(known_hosts),
        "ansible_python_interpreter": INTERPRETER,
    }


def inventory_data(hosts: list[tuple[str, str]], private_key: Path, known_hosts: Path) -> dict:
    """Ansible's YAML inventory layout for (name, address) pairs."""
    return {
        "all": {
            "children": {
                GROUP: {
                    "hosts": {name: {"ansible_host": address} for name, address in hosts},
                    "vars": access_vars(private_key, known_hosts),
                },
            },
        },
    }


def write_inventory(path: Path, hosts: list[tuple[str, str]], private_key: Path, known_hosts: Path) -> None:
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096  # long paths stay on one line
    buffer = io.StringIO()
    buffer.write("# Written by provisioning-testenv: the env's running hosts. Rewritten on every 'up'.\n")
    yaml.dump(inventory_data(hosts, private_key, known_hosts), buffer)
    atomic_write_text(path, buffer.getvalue())
