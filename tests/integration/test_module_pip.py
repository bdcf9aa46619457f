"""pip on a test host: a virtualenv created with python3 -m venv, a small pure-Python package (six) installed at
a version, upgraded to the latest, from a requirements file, and removed."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

VENV = "/tmp/pip-module-test/venv"
VENV_ARGS = {"virtualenv": VENV, "virtualenv_command": "python3 -m venv"}


@pytest.fixture(scope="module")
def venv_dir(host: RemoteHost) -> Iterator[str]:
    host.shell("rm -rf /tmp/pip-module-test")
    yield VENV
    host.shell("rm -rf /tmp/pip-module-test")


def six_version(infra) -> str | None:
    listed = infra.run(f"{VENV}/bin/pip list --format=freeze")
    return next((line.split("==")[1] for line in listed.stdout.splitlines() if line.startswith("six==")), None)


def test_virtualenv_and_pinned_version(host: RemoteHost, venv_dir: str, testenv) -> None:
    infra = infra_for(testenv)
    result = converge(host, "pip", {"name": "six", "version": "1.15.0", **VENV_ARGS},
                      state=lambda: infra.file(venv_dir).exists)
    assert six_version(infra) == "1.15.0"
    assert result["diff"]["after"] == "six==1.15.0\n"
    satisfied = host.run("pip", {"name": ["six>=1.10,<2"], **VENV_ARGS}, check=True)
    assert satisfied["changed"] is False, satisfied


def test_latest_then_requirements_then_absent(host: RemoteHost, venv_dir: str, testenv) -> None:
    infra = infra_for(testenv)
    upgraded = converge(host, "pip", {"name": "six", "state": "latest", **VENV_ARGS},
                        state=lambda: six_version(infra))
    assert upgraded["diff"]["before"] == "six==1.15.0\n" and six_version(infra) != "1.15.0"

    host.shell("sh -c 'echo six==1.16.0 > /tmp/pip-module-test/requirements.txt'")
    converge(host, "pip", {"requirements": "/tmp/pip-module-test/requirements.txt", **VENV_ARGS},
             state=lambda: six_version(infra))
    assert six_version(infra) == "1.16.0"

    removed = converge(host, "pip", {"name": "six", "state": "absent", **VENV_ARGS},
                       state=lambda: six_version(infra))
    assert six_version(infra) is None and removed["diff"]["before"] == "six==1.16.0\n"


def test_clear_failures(host: RemoteHost, venv_dir: str) -> None:
    both = host.run("pip", {"name": "six", "requirements": "r.txt"})
    assert both.get("failed") and "mutually exclusive" in both["msg"]
    no_command = host.run("pip", {"name": "six", "virtualenv": "/tmp/pip-module-test/other",
                                  "virtualenv_command": "no-such-virtualenv"})
    assert no_command.get("failed") and "virtualenv_command" in no_command["msg"]
    two_versions = host.run("pip", {"name": ["six", "toml"], "version": "1.0", **VENV_ARGS})
    assert two_versions.get("failed") and "version" in two_versions["msg"]
