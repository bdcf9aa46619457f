"""An infra over the test taskserv roles in tests/data/taskservs/roles, for the taskserv unit and integration
tests: two local servers and a cluster over both.

- ``it-web1`` carries ``webdir`` (which requires ``files``); ``it-db1`` carries ``files`` with the profile ``big``
  and its own greeting.
- The cluster ``farm`` carries ``mirror`` (which requires ``webdir``): on it-db1 the cluster play installs webdir
  first; on it-web1 its own play did.

Every role appends its name to /var/lib/taskservs/order on the host, so the install order can be read back.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "taskservs"
CONFIG = DATA / "provisioning.cfg"
ROLES = DATA / "roles"

INFRA = """\
name: itest
providers:
  local: {{state_dir: "{state_dir}", base_address: {base}, poll_interval: 0.1}}
servers:
  - hostname: it-web1
    provider: local
    labels: [web]
    taskservs: [webdir]
  - hostname: it-db1
    provider: local
    taskservs:
      - {{name: files, profile: big, vars: {{files_greeting: hello db}}}}
clusters:
  - name: farm
    servers: [it-web1, it-db1]
    taskservs: [mirror]
    vars: {{mirror_peers: [it-web1, it-db1]}}
"""


def write_infra(directory: Path, state_dir: Path, base: int = 150, text: str = INFRA) -> Path:
    """The infra file in ``directory``, its local servers kept under ``state_dir`` from 127.0.0.<base> up."""
    path = directory / "infra.yml"
    path.write_text(text.format(state_dir=state_dir, base=base))
    return path


def environment() -> dict[str, str]:
    """The environment the commands run with: the tests' configuration, nothing of the developer's."""
    kept = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    # The suite's choice stays: no connection keeper unless a test asks for one.
    return {**kept, "PROVISIONING_CONFIG": str(CONFIG),
            "PROVISIONING_PERSIST": os.environ.get("PROVISIONING_PERSIST", "0")}
