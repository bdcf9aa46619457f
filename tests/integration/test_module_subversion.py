"""subversion on a test host. Without svn (the subversion package is not installed here, and tests download
nothing) the task fails with ansible-core's message; where svn is installed, a file:// repository made by the
test is checked out, updated to a new revision, and kept from being overwritten while it has local changes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge

ROOT = "/tmp/provisioning-test-svn"


def has_svn(host: RemoteHost) -> bool:
    return host.shell("command -v svn svnadmin >/dev/null && echo yes || echo no").strip() == "yes"


def test_without_svn_fails_as_ansible_core_does(host: RemoteHost) -> None:
    if has_svn(host):
        pytest.skip("svn is installed on the test host")
    result = host.run("subversion", {"repo": "file:///nonexistent", "dest": "/tmp/x"})
    assert result.get("failed") and result["msg"].startswith('Failed to find required executable "svn" in paths:')


def test_destination_needed(host: RemoteHost) -> None:
    result = host.run("subversion", {"repo": "file:///x", "executable": "/bin/true"})
    assert result.get("failed") and "the destination directory must be specified" in result["msg"], result


@pytest.fixture
def repository(host: RemoteHost) -> Iterator[str]:
    if not has_svn(host):
        pytest.skip("svn is not installed on the test host (Debian package subversion)")
    host.shell(f"rm -rf {ROOT}; mkdir -p {ROOT}/seed && svnadmin create {ROOT}/repo && echo one > {ROOT}/seed/a && "
               f"svn import -q -m one {ROOT}/seed file://{ROOT}/repo/trunk")
    yield f"file://{ROOT}/repo/trunk"
    host.shell(f"rm -rf {ROOT}")


def test_checkout_update_and_local_changes(host: RemoteHost, repository: str) -> None:
    args = {"repo": repository, "dest": f"{ROOT}/wc"}
    first = converge(host, "subversion", args, diff=False)
    assert first["after"][0] == "Revision: 1"
    host.shell(f"svn co -q {repository} {ROOT}/other && echo two > {ROOT}/other/a && svn ci -q -m two {ROOT}/other")
    updated = converge(host, "subversion", args, diff=False)
    assert updated["before"][0] == "Revision: 1" and updated["after"][0] == "Revision: 2"
    host.shell(f"echo local > {ROOT}/wc/a")
    refused = host.run("subversion", args)
    assert refused.get("failed") and refused["msg"] == "ERROR: modified files exist in the repository.", refused
    forced = host.run("subversion", {**args, "force": True})
    assert forced["changed"] and host.shell(f"cat {ROOT}/wc/a") == "two\n", forced
