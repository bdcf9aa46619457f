"""A server started from a golden image of the shipped nginx and postgres roles finds them as its roles would
leave them: on its first install every taskserv task reports ``ok``, none ``changed`` (its name and address
rendered into the image's configuration at boot, the daemons the image enabled started at boot).

Local servers on 127.0.0.96 (the build) and 127.0.0.97 (the server), state in a directory of their own.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runner.providers import ensure_absent, make_provider
from runner.providers.local import LocalProvider
from runner.testenv import unavailable_reason
from runner.testenv.machine import mount_points_under
from tests.support.scripts import script
from tests.support.taskserv_infra import environment

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

ROLES = Path(__file__).resolve().parents[2] / "roles"
PROVIDERS = '{{local: {{state_dir: "{state}", images_dir: "{images}", base_address: {base}, poll_interval: 0.1}}}}'
SPEC = """\
name: webdb
taskservs: [nginx, postgres]
build: {{provider: local}}
providers: """ + PROVIDERS + "\n"
INFRA = """\
name: goldenfirst
providers: """ + PROVIDERS + """
servers:
  - {{hostname: gf-web1, provider: local, image: "golden:webdb", taskservs: [nginx, postgres]}}
"""
CONFIG = "[defaults]\nforks = 4\nroles_path = {roles}\nstdout_callback = default\nnocolor = True\n"


@dataclass
class Project:
    directory: Path
    state: Path
    images: Path

    def provider(self, env: str) -> LocalProvider:
        return make_provider("local", {"state_dir": str(self.state), "images_dir": str(self.images)},
                             env_name=env)  # type: ignore[return-value]

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        env = {**environment(), "PROVISIONING_CONFIG": str(self.directory / "provisioning.cfg")}
        return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=self.directory,
                              env=env, timeout=1200)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    directory = tmp_path_factory.mktemp("golden-first")
    made = Project(directory, directory / "state", directory / "images")
    (directory / "webdb.yml").write_text(SPEC.format(state=made.state, images=made.images, base=96))
    (directory / "infra.yml").write_text(INFRA.format(state=made.state, images=made.images, base=97))
    (directory / "provisioning.cfg").write_text(CONFIG.format(roles=ROLES))
    yield made
    for env in ("goldenfirst", "image-webdb"):
        provider = made.provider(env)
        for state in provider.servers():
            ensure_absent(provider, state.name)
    assert mount_points_under(made.state) == []


def changed_tasks(stdout: str, host: str) -> list[str]:
    """The tasks of the taskserv plays that reported ``changed`` on ``host``."""
    taskservs = stdout.split("PLAY [Taskservs on", 1)[-1]
    changed = []
    for block in taskservs.split("TASK [")[1:]:
        if re.search(rf"^changed: \[{re.escape(host)}\]", block, re.MULTILINE):
            changed.append(block.split("]", 1)[0])
    return changed


def test_a_server_from_the_image_reports_every_taskserv_task_ok(project: Project) -> None:
    built = project.run("provisioning-infra", "image", "build", "webdb.yml")
    assert built.returncode == 0, built.stdout + built.stderr
    layer = next((project.state / "images").iterdir())
    manifest = (layer / "etc/provisioning/image-host.json").read_text()
    assert "nginx" in manifest and "postgresql" in manifest  # the services the image starts at boot

    first = project.run("provisioning-playbook", "--infra", "infra.yml")
    assert first.returncode == 0, first.stdout + first.stderr
    assert "PLAY [Taskservs on gf-web1]" in first.stdout
    assert changed_tasks(first.stdout, "gf-web1") == []
    shown = project.run("provisioning-infra", "server", "ssh", "gf-web1", "--infra", "infra.yml", "--",
                        "cat /etc/hostname; grep -c 127.0.0.97 /etc/nginx/sites-available/provisioning.conf")
    assert shown.stdout.split() == ["gf-web1", "1"], shown.stderr
