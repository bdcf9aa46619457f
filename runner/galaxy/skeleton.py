"""``role init``: a new role's skeleton, laid out as ``ansible-galaxy role init`` lays it out.

Tasks, handlers, defaults, vars, templates, files, a README, ``meta/main.yml`` with Galaxy-style info, and
``meta/argument_specs.yml``; with ``taskserv=True`` the meta file also declares the role as a taskserv (its
version, requirements and health check), otherwise that section is there as a comment to fill in.
"""

from __future__ import annotations

import re
from pathlib import Path

from runner.galaxy.errors import GalaxyError

ROLE_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")

_TASKSERV = """taskserv:
  version: "0.1.0"
  requires: []          # e.g. ["containerd>=1.6"]: installed first, on the same host
  optional: []
  conflicts: []
  provides: []
  health_check:
    command: "true"     # or port: 8080, or url: "http://{{ ansible_host }}:8080/health"
    retries: 5
    interval: 2
  os_support: [debian]
"""


def _meta(name: str, taskserv: bool) -> str:
    section = _TASKSERV if taskserv else "".join(f"# {line}\n" if line else "#\n"
                                                  for line in _TASKSERV.rstrip().split("\n"))
    return f"""galaxy_info:
  role_name: {name}
  author: your name
  description: What {name} sets up
  license: Apache-2.0
  min_ansible_version: "2.14"
  platforms:
    - name: Debian
      versions: [bookworm]
  galaxy_tags: []

# Roles needed first; 'src' and 'version' say where from and which versions (provisioning-galaxy install).
dependencies: []

# A taskserv (an installable service) declares itself here; see docs/roles-oci.md.
{section}"""


def _files(name: str, taskserv: bool) -> dict[str, str]:
    return {
        "README.md": f"# {name}\n\nWhat the role does, its variables (see meta/argument_specs.yml) and an example "
                     f"playbook:\n\n```yaml\n- hosts: all\n  roles:\n    - {name}\n```\n",
        "tasks/main.yml": f"---\n# tasks file for {name}\n",
        "handlers/main.yml": f"---\n# handlers file for {name}\n",
        "defaults/main.yml": f"---\n# defaults file for {name} (lowest precedence: users override these)\n",
        "vars/main.yml": f"---\n# vars file for {name} (high precedence: not meant to be overridden)\n",
        "meta/main.yml": _meta(name, taskserv),
        "meta/argument_specs.yml": f"""---
argument_specs:
  main:
    short_description: The main entry point of {name}
    options: {{}}
""",
        "templates/.gitkeep": "",
        "files/.gitkeep": "",
        "tests/inventory": "localhost\n",
        "tests/test.yml": f"---\n- hosts: localhost\n  roles:\n    - {name}\n",
    }


def init_role(name: str, parent: Path, *, taskserv: bool = False, force: bool = False) -> Path:
    """Create ``parent/name`` with the skeleton; an existing directory is an error unless ``force``."""
    if not ROLE_NAME.match(name):
        raise GalaxyError(f"'{name}' is not a role name (lowercase letters, digits, '_' and '-', starting with a "
                          "letter; it is also the role's repository name in registries)")
    root = parent / name
    if root.exists() and not force:
        raise GalaxyError(f"{root} already exists (use --force to write the skeleton over it)")
    for relative, text in _files(name, taskserv).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root
