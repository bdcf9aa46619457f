"""git on a test host, against a bare repository made on that host: clone, update, tags, commits, branches,
local modifications, bare mirrors and a changed remote URL."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge, infra_for

BASE = "/tmp/git-module-test"
ORIGIN = f"{BASE}/origin.git"
WORK = f"{BASE}/work"
GIT = "git -c user.name=Test -c user.email=test@example.test"


class Origin:
    """The bare repository and a working clone that pushes commits to it."""

    def __init__(self, host: RemoteHost):
        self.host = host
        self.branch = "main"

    def commit(self, text: str, branch: str = "main", tag: str | None = None) -> str:
        if branch != self.branch:
            self.host.shell(f"git -C {WORK} checkout -q -B {branch}")
            self.branch = branch
        script = (f"cd {WORK} && echo '{text}' > file.txt && git add file.txt && "
                  f"{GIT} commit -q -m '{text}' && git push -q origin {branch}")
        if tag:
            script += f" && git tag {tag} && git push -q origin {tag}"
        self.host.shell(f"sh -c \"{script}\"")
        return self.host.shell(f"git -C {WORK} rev-parse HEAD").strip()


@pytest.fixture(scope="module")
def origin(host: RemoteHost) -> Iterator[Origin]:
    host.shell(f"rm -rf {BASE} && mkdir -p {BASE}")
    host.shell(f"git init -q --bare -b main {ORIGIN}")
    host.shell(f"git clone -q {ORIGIN} {WORK}")
    yield Origin(host)
    host.shell(f"rm -rf {BASE}")


def test_clone_update_tag_commit_and_branch(host: RemoteHost, origin: Origin, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{BASE}/checkout"
    first = origin.commit("one", tag="v1")
    head = lambda: infra.run(f"git -C {dest} rev-parse HEAD").stdout.strip()  # noqa: E731
    cloned = converge(host, "git", {"repo": ORIGIN, "dest": dest}, state=lambda: infra.file(dest).exists)
    assert (cloned["before"], cloned["after"]) == (None, first) and head() == first
    assert infra.file(f"{dest}/file.txt").content_string == "one\n"

    second = origin.commit("two")
    updated = converge(host, "git", {"repo": ORIGIN, "dest": dest}, state=head)
    assert (updated["before"], updated["after"]) == (first, second)
    assert infra.file(f"{dest}/file.txt").content_string == "two\n"

    converge(host, "git", {"repo": ORIGIN, "dest": dest, "version": "v1"}, state=head)
    assert head() == first
    converge(host, "git", {"repo": ORIGIN, "dest": dest, "version": second[:10]}, state=head)
    assert head() == second

    feature = origin.commit("feature", branch="feature")
    converge(host, "git", {"repo": ORIGIN, "dest": dest, "version": "feature"}, state=head)
    assert head() == feature
    assert infra.run(f"git -C {dest} rev-parse --abbrev-ref HEAD").stdout.strip() == "feature"


def test_local_modifications_need_force(host: RemoteHost, origin: Origin, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{BASE}/modified"
    assert not host.run("git", {"repo": ORIGIN, "dest": dest, "version": "main"}).get("failed")
    host.shell(f"sh -c 'echo local > {dest}/file.txt'")
    refused = host.run("git", {"repo": ORIGIN, "dest": dest, "version": "main"})
    assert refused.get("failed") and "Local modifications exist" in refused["msg"], refused
    assert infra.file(f"{dest}/file.txt").content_string == "local\n"
    forced = host.run("git", {"repo": ORIGIN, "dest": dest, "version": "main", "force": True})
    assert forced["changed"] is True and not forced.get("failed"), forced
    assert infra.file(f"{dest}/file.txt").content_string != "local\n"


def test_bare_mirror_and_changed_remote_url(host: RemoteHost, origin: Origin, testenv) -> None:
    infra = infra_for(testenv)
    mirror = f"{BASE}/mirror.git"
    bare_head = lambda: infra.run(f"git -C {mirror} rev-parse main").stdout.strip()  # noqa: E731
    converge(host, "git", {"repo": ORIGIN, "dest": mirror, "bare": True}, state=lambda: infra.file(mirror).exists)
    assert infra.file(f"{mirror}/HEAD").exists and not infra.file(f"{mirror}/.git").exists
    newest = origin.commit("three")
    converge(host, "git", {"repo": ORIGIN, "dest": mirror, "bare": True}, state=bare_head)
    assert bare_head() == newest

    moved = converge(host, "git", {"repo": f"file://{ORIGIN}", "dest": mirror, "bare": True},
                     state=lambda: infra.run(f"git -C {mirror} config remote.origin.url").stdout)
    assert moved["remote_url_changed"] is True and moved["before"] == moved["after"]


def test_no_clone_and_clear_failures(host: RemoteHost, origin: Origin, testenv) -> None:
    infra = infra_for(testenv)
    not_cloned = host.run("git", {"repo": ORIGIN, "dest": f"{BASE}/never", "clone": False})
    assert not_cloned["changed"] is False and not infra.file(f"{BASE}/never").exists
    missing = host.run("git", {"repo": ORIGIN, "dest": f"{BASE}/x", "version": "no-such-branch"})
    assert missing.get("failed") and "no-such-branch" in missing["msg"]
    no_repo = host.run("git", {"repo": f"{BASE}/no-such.git", "dest": f"{BASE}/y"})
    assert no_repo.get("failed") and "ls-remote" in no_repo["msg"]
