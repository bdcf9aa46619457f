"""yum_repository on a test host (Debian: the file is all it needs): a repository section written as
ansible-core writes it, a second section beside it, then both removed and the file with them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

REPOS = "/tmp/provisioning-test-yum.repos.d"
EPEL = {"name": "epel", "description": "EPEL repo", "baseurl": ["http://a/x", "http://b/x"], "gpgcheck": True,
        "exclude": ["k*", "j*"], "priority": "5", "reposdir": REPOS, "mode": "0600"}
# What ansible-core 2.19 writes for EPEL (checked by running it against the same arguments).
EPEL_FILE = ("[epel]\nbaseurl = http://a/x\n\thttp://b/x\nexclude = k* j*\ngpgcheck = 1\nname = EPEL repo\n"
             "priority = 5\n\n")


@pytest.fixture
def reposdir(host: RemoteHost) -> Iterator[str]:
    host.shell(f"mkdir -p {REPOS}")
    yield REPOS
    host.shell(f"rm -rf {REPOS}")


def content(testenv, name: str = "epel") -> str | None:
    file = infra_for(testenv).file(f"{REPOS}/{name}.repo")
    return file.content_string if file.exists else None


def test_written_as_ansible_core_writes_it(host: RemoteHost, testenv, reposdir: str) -> None:
    first = converge(host, "yum_repository", EPEL, state=lambda: content(testenv))
    assert content(testenv) == EPEL_FILE
    assert infra_for(testenv).file(f"{REPOS}/epel.repo").mode == 0o600
    assert first["diff"]["before"] == "" and "priority = 5\n" in first["diff"]["after"]

    testing = {"name": "epel-testing", "file": "epel", "description": "EPEL testing", "metalink": "http://m/",
               "enabled": False, "reposdir": REPOS}
    converge(host, "yum_repository", testing, state=lambda: content(testenv))
    assert content(testenv) == EPEL_FILE + "[epel-testing]\nenabled = 0\nmetalink = http://m/\nname = EPEL testing\n\n"

    converge(host, "yum_repository", {"name": "epel", "state": "absent", "reposdir": REPOS},
             state=lambda: content(testenv))
    converge(host, "yum_repository", {"name": "epel-testing", "file": "epel", "state": "absent", "reposdir": REPOS},
             state=lambda: content(testenv))
    assert content(testenv) is None


@pytest.mark.parametrize(("args", "message"), [
    ({"name": "x", "baseurl": "http://a/"}, "description"),
    ({"name": "x", "description": "y"}, "baseurl, mirrorlist, metalink"),
    ({"name": "x", "description": "y", "baseurl": "http://a/", "reposdir": "/no-such-yum-reposdir"},
     "Repo directory '/no-such-yum-reposdir' does not exist."),
])
def test_bad_arguments(host: RemoteHost, args: dict, message: str) -> None:
    result = host.run("yum_repository", args)
    assert result.get("failed") and message in result["msg"], result
