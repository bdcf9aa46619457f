"""Golden images of the local provider, through the installed commands: ``image build`` (a temporary server, its
taskservs, its upper layer captured by content digest, a GoldenImageVersion recorded), ``image list|show`` as
JSON valid against their schemas, a new server started from ``golden:NAME`` finding its taskservs installed, and
``image delete|prune`` keeping a layer a server still runs from.

The tests run in order on local servers from 127.0.0.90 up (state, records and infra in a directory of their
own), over the test taskserv roles of tests/data/taskservs; everything is taken down at the end.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from runner.models.schemas import SCHEMA_DIR
from runner.providers import ensure_absent, make_provider
from runner.providers.local import LocalProvider
from runner.testenv import unavailable_reason
from runner.testenv.machine import mount_points_under
from tests.support.scripts import script
from tests.support.taskserv_infra import DATA, environment

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

PROVIDERS = '{{local: {{state_dir: "{state}", images_dir: "{images}", base_address: {base}, poll_interval: 0.1}}}}'
SPEC = """\
name: gweb
description: a web directory, ready
taskservs: [webdir]
build: {{provider: local}}
providers: """ + PROVIDERS + "\n"
INFRA = """\
name: golden
providers: """ + PROVIDERS + """
servers:
  - {{hostname: gi-web1, provider: local, image: "golden:gweb", taskservs: [webdir, sshd]}}
"""
# The test roles, and one whose defaults name a Debian package (the machine's own openssh-server).
CONFIG = "[defaults]\nforks = 4\nroles_path = {data}:{roles}\nstdout_callback = default\nnocolor = True\n"
SSHD_ROLE = {"defaults/main.yml": "sshd_packages: [openssh-server]\n",
             "meta/main.yml": "dependencies: []\ntaskserv: {version: '9.2'}\n",
             "tasks/main.yml": "- name: nothing to do\n  debug: {msg: sshd is the machine's}\n"}


@dataclass
class Golden:
    directory: Path
    state: Path
    images: Path

    def provider(self, env: str) -> LocalProvider:
        return make_provider("local", {"state_dir": str(self.state), "images_dir": str(self.images)},
                             env_name=env)  # type: ignore[return-value]

    def run(self, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        env = {**environment(), "PROVISIONING_CONFIG": str(self.directory / "provisioning.cfg")}
        return subprocess.run([script(args[0]), *args[1:]], capture_output=True, text=True, cwd=self.directory,
                              env=env, timeout=timeout)

    def document(self, schema: str, *args: str) -> Any:
        done = self.run("provisioning-infra", *args, "--images", str(self.images), "--out", "json")
        assert done.returncode == 0, done.stdout + done.stderr
        data = json.loads(done.stdout)
        jsonschema.validate(data, json.loads((SCHEMA_DIR / schema).read_text()))
        return data


@pytest.fixture(scope="module")
def golden(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Golden]:
    directory = tmp_path_factory.mktemp("golden")
    built = Golden(directory, directory / "state", directory / "images")
    (directory / "gweb.yml").write_text(SPEC.format(state=built.state, images=built.images, base=90))
    (directory / "infra.yml").write_text(INFRA.format(state=built.state, images=built.images, base=93))
    (directory / "provisioning.cfg").write_text(CONFIG.format(data=DATA / "roles", roles=directory / "roles"))
    for path, text in SSHD_ROLE.items():
        (directory / "roles" / "sshd" / path).parent.mkdir(parents=True, exist_ok=True)
        (directory / "roles" / "sshd" / path).write_text(text)
    yield built
    for env in ("golden", "image-gweb"):  # after a failed test: nothing is left running
        provider = built.provider(env)
        for state in provider.servers():
            ensure_absent(provider, state.name)
    assert mount_points_under(built.state) == []


def test_check_mode_says_what_it_would_build_and_starts_nothing(golden: Golden) -> None:
    done = golden.run("provisioning-infra", "image", "build", "gweb.yml", "--check")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "would build golden image golden:gweb@1.0.0 on local server gweb-build" in done.stdout
    assert golden.provider("image-gweb").servers() == [] and not golden.images.exists()


def test_a_local_server_starts_from_nothing_but_a_golden_image(golden: Golden) -> None:
    bad = golden.directory / "bad-image.yml"
    bad.write_text("name: bad\nservers:\n  - {hostname: b1, provider: local, image: debian-12}\n")
    done = golden.run("provisioning-infra", "validate", "bad-image.yml")
    assert done.returncode == 4 and "bad-image.yml:3:44: expected golden:NAME or golden:NAME@VERSION" in done.stderr


def test_build_captures_the_server_records_the_version_and_deletes_the_server(golden: Golden) -> None:
    done = golden.run("provisioning-infra", "image", "build", "gweb.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "golden image golden:gweb@1.0.0:" in done.stdout
    assert golden.provider("image-gweb").servers() == []  # the temporary server is gone
    (image,) = golden.document("infra-image-list.schema.json", "image", "list")["images"]
    assert (image["name"], image["version"], image["provider"]) == ("gweb", "1.0.0", "local")
    assert image["taskservs"] == {"os": "1.0.0", "files": "1.2.0", "webdir": "0.3.0"}
    layer = golden.state / "images" / image["image_id"]
    assert image["checksum"] == image["image_id"] and layer.is_dir()
    assert (layer / "var/lib/taskservs/order").read_text().split() == ["os", "files", "webdir"]
    # The build server's identity stays out of the image: each server writes its own.
    assert not (layer / "etc/hostname").exists()
    assert not (layer / "etc/ssh/provisioning_host_ed25519_key").exists()
    shown = golden.document("infra-image.schema.json", "image", "show", "gweb@1.0.0")
    assert shown["record"]["image_name"] == "gweb" and shown["record"]["build_job_id"].startswith("gweb-1.0.0-")


def test_a_version_that_exists_is_refused_before_any_server_starts(golden: Golden) -> None:
    spec = golden.directory / "again.yml"
    spec.write_text((golden.directory / "gweb.yml").read_text().replace("description:", "version: 1.0.0\n"
                                                                                        "description:"))
    done = golden.run("provisioning-infra", "image", "build", "again.yml")
    assert done.returncode == 1 and "golden image gweb has a version 1.0.0 already" in done.stderr
    assert golden.provider("image-gweb").servers() == []


def test_a_bad_spec_is_reported_where_it_was_written(golden: Golden) -> None:
    spec = golden.directory / "bad.yml"
    spec.write_text("name: bad\ntaskservs: [webdir]\nbuild: {provider: local}\ncache_ttl_days: 0\nflavour: x\n")
    done = golden.run("provisioning-infra", "image", "build", "bad.yml")
    assert done.returncode == 4, done.stderr
    assert "bad.yml:4:17" in done.stderr and "Cache TTL must be 1-365 days" in done.stderr
    assert "bad.yml:5:1" in done.stderr and "flavour" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_server_from_the_image_finds_its_taskservs_installed(golden: Golden) -> None:
    done = golden.run("provisioning-infra", "server", "create", "--infra", "infra.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    assert ("from golden image golden:gweb@1.0.0: ok (in the image): os 1.0.0, files 1.2.0, webdir 0.3.0; "
            "to install: sshd" in done.stdout)
    done = golden.run("provisioning-infra", "server", "ssh", "gi-web1", "--infra", "infra.yml", "--",
                      "hostname; cat /var/lib/taskservs/order", timeout=120)
    assert done.stdout.split() == ["gi-web1", "os", "files", "webdir"], done.stderr
    done = golden.run("provisioning-playbook", "--infra", "infra.yml")
    assert done.returncode == 0, done.stdout + done.stderr
    # What the image holds is found there: each role's install step reports ok on the first run.
    for role in ("os", "files", "webdir"):
        assert f"TASK [{role} : Record the install order]" in done.stdout
    assert "changed: [gi-web1]" not in _task_output(done.stdout, "Record the install order")


def test_check_updates_compares_installed_packages_with_apts_candidates(golden: Golden) -> None:
    done = golden.run("provisioning-infra", "taskserv", "check-updates", "--infra", "infra.yml", "--out", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    jsonschema.validate(document, json.loads((SCHEMA_DIR / "infra-taskserv-updates.schema.json").read_text()))
    lines = {(u["taskserv"], u["source"]): u for u in document["updates"]}
    machine = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "openssh-server"], capture_output=True,
                             text=True, check=True).stdout
    sshd = lines[("sshd", "apt")]
    assert (sshd["server"], sshd["item"], sshd["installed"]) == ("gi-web1", "openssh-server", machine)
    assert sshd["status"] == ("up to date" if sshd["available"] == machine else "update available")
    assert lines[("webdir", "none")]["status"] == "no source"
    done = golden.run("provisioning-infra", "taskserv", "update", "webdir", "--check", "--infra", "infra.yml")
    assert done.returncode == 0 and "no update available for webdir: nothing to update" in done.stdout, done.stderr


def test_delete_keeps_the_layer_a_server_runs_from_and_prune_removes_it_after(golden: Golden) -> None:
    (image,) = golden.document("infra-image-list.schema.json", "image", "list")["images"]
    layer = golden.state / "images" / image["image_id"]
    done = golden.run("provisioning-infra", "image", "delete", "gweb@1.0.0", "--yes", "--images",
                      str(golden.images), "--state-dir", str(golden.state))
    assert done.returncode == 0, done.stderr
    assert "kept: a server runs from it" in done.stdout and layer.is_dir()
    assert golden.document("infra-image-list.schema.json", "image", "list")["images"] == []
    provider = golden.provider("golden")
    ensure_absent(provider, "gi-web1")
    done = golden.run("provisioning-infra", "image", "prune", "--yes", "--images", str(golden.images),
                      "--state-dir", str(golden.state))
    assert done.returncode == 0, done.stderr
    assert "deleted local layer" in done.stdout and not layer.exists()


def _task_output(stdout: str, task: str) -> str:
    """The result lines of every task whose name ends with ``task``."""
    blocks = stdout.split("TASK [")
    return "\n".join(block for block in blocks if block.split("]", 1)[0].endswith(task))
