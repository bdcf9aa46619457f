"""Roles from the sources Ansible users name in requirements.yml: git repositories (branch, tag, commit) and
tarballs (http, file:// and local paths), locked by commit and sha256, installed as ansible-galaxy installs them.

The git repositories are made here (``git init``, commits, tags, branches) and read through ``git+file://``; the
tarballs are served from 127.0.0.1 by a tiny HTTP server. Nothing leaves the machine.
"""

from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from runner.galaxy.lockfile import read_lock
from tests.integration.http_server import serve
from tests.support.ansible_core import ansible_binary
from tests.support.galaxy import Galaxy, make_role

GIT_ENV = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "init.defaultBranch=main"]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *GIT_ENV, "-C", str(repo), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def commit_task(repo: Path, message: str) -> str:
    (repo / "tasks" / "main.yml").write_text(f"- debug: msg={message}\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A role repository: v1.0 tagged on 'one', a dev branch at 'dev', main at 'two'."""
    role = make_role(tmp_path / "repos", "web", "galaxy_info: {author: ops}\ndependencies: []\n", "")
    git(role, "init", "-q")
    commit_task(role, "one")
    git(role, "tag", "v1.0")
    git(role, "checkout", "-q", "-b", "dev")
    commit_task(role, "dev")
    git(role, "checkout", "-q", "main")
    commit_task(role, "two")
    return role


def message_of(role_dir: Path) -> str:
    return (role_dir / "tasks" / "main.yml").read_text().strip().removeprefix("- debug: msg=")


def tarball(members: dict[str, str], top: str | None = None, symlinks: dict[str, str] | None = None) -> bytes:
    """A .tar.gz of ``members`` (path: text), under ``top`` when given, as GitHub's release archives are."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:gz") as tar:
        for name, text in members.items():
            info = tarfile.TarInfo(f"{top}/{name}" if top else name)
            info.size = len(text.encode())
            tar.addfile(info, io.BytesIO(text.encode()))
        for name, target in (symlinks or {}).items():
            info = tarfile.TarInfo(f"{top}/{name}" if top else name)
            info.type, info.linkname = tarfile.SYMTYPE, target
            tar.addfile(info)
    return data.getvalue()


ROLE_FILES = {"tasks/main.yml": "- debug: msg=packed\n", "meta/main.yml": "galaxy_info: {author: ops}\n"}


def test_git_branch_tag_commit_locked_by_commit_then_frozen_offline(repo: Path, tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    first = git(repo, "rev-list", "--max-parents=0", "HEAD")
    requirements = tmp_path / "project" / "requirements.yml"
    requirements.parent.mkdir()
    requirements.write_text(f"""roles:
  - src: git+file://{repo}
  - src: git+file://{repo}
    version: v1.0
    name: tagged
  - src: file://{repo}
    scm: git
    version: dev
    name: branch
  - src: git+file://{repo}
    version: {first}
    name: pinned
""")
    roles = tmp_path / "project" / "roles"
    run = galaxy("install", "-r", str(requirements), "-p", str(roles))
    assert "- tagged (v1.0) was installed successfully" in run.stdout
    assert {name: message_of(roles / name) for name in ("web", "tagged", "branch", "pinned")} == \
        {"web": "two", "tagged": "one", "branch": "dev", "pinned": "one"}
    assert not (roles / "web" / ".git").exists()
    lock = read_lock(requirements.with_suffix(".lock"))
    assert lock is not None
    commits = {role.name: role.commit for role in lock.roles}
    assert commits == {"web": git(repo, "rev-parse", "main"), "tagged": first, "branch": git(repo, "rev-parse", "dev"),
                       "pinned": first}
    web = lock.get("web")
    assert web is not None and web.source == f"git+file://{repo}" and web.digest.startswith("sha256:")
    # The lock holds a branch where it was: a new commit on main is taken only with --update.
    commit_task(repo, "three")
    galaxy("install", "-r", str(requirements), "-p", str(roles))
    assert message_of(roles / "web") == "two"
    galaxy("install", "-r", str(requirements), "-p", str(roles), "-U")
    assert message_of(roles / "web") == "three"
    # --frozen installs exactly the lock, from the cache: the repository is not needed any more.
    shutil.move(repo, tmp_path / "gone")
    shutil.rmtree(roles)
    run = galaxy("install", "-r", str(requirements), "-p", str(roles), "--frozen")
    assert message_of(roles / "web") == "three" and message_of(roles / "branch") == "dev"


def test_git_errors_are_one_clear_line(repo: Path, tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    requirements = tmp_path / "requirements.yml"
    requirements.write_text(f"- src: git+file://{repo}\n  version: no-such-branch\n")
    run = galaxy("install", "-r", str(requirements), "-p", str(tmp_path / "roles"), expect=1)
    assert f"git+file://{repo}: the repository has no branch, tag or commit 'no-such-branch'" in run.stderr
    requirements.write_text(f"- src: git+file://{tmp_path}/missing\n")
    run = galaxy("install", "-r", str(requirements), "-p", str(tmp_path / "roles"), expect=1)
    assert "git clone failed" in run.stderr and "Traceback" not in run.output
    assert not (tmp_path / "roles").exists()


def test_tarballs_by_url_file_url_and_path_locked_by_sha256(tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    served = tmp_path / "served"
    served.mkdir()
    (served / "web-1.0.tar.gz").write_bytes(tarball(ROLE_FILES, top="web-1.0"))
    project = tmp_path / "project"
    project.mkdir()
    (project / "flat.tar.gz").write_bytes(tarball(ROLE_FILES))
    with serve(served) as server:
        requirements = project / "requirements.yml"
        requirements.write_text(f"""roles:
  - src: {server.url("web-1.0.tar.gz")}
    name: web
  - src: file://{served}/web-1.0.tar.gz
    name: fromfile
  - src: ./flat.tar.gz
""")
        roles = project / "roles"
        galaxy("install", "-r", str(requirements), "-p", str(roles))
        assert sorted(path.name for path in roles.iterdir()) == ["flat", "fromfile", "web"]
        for name in ("flat", "fromfile", "web"):
            assert message_of(roles / name) == "packed"
        lock = read_lock(requirements.with_suffix(".lock"))
        assert lock is not None
        digests = {role.name: (role.source, role.digest, role.commit) for role in lock.roles}
        served_digest = "sha256:" + hashlib.sha256((served / "web-1.0.tar.gz").read_bytes()).hexdigest()
        assert digests["web"] == (server.url("web-1.0.tar.gz"), served_digest, None)
        assert digests["flat"][0] == "flat.tar.gz"  # relative to the lock, so it reads the same in every checkout
        # Content changed behind the same URL: --frozen refuses it rather than install something else.
        (served / "web-1.0.tar.gz").write_bytes(tarball({**ROLE_FILES, "tasks/main.yml": "- fail:\n"}, top="web"))
        shutil.rmtree(galaxy.cache)
        before = (roles / "web" / "tasks" / "main.yml").read_text()
        run = galaxy("install", "-r", str(requirements), "-p", str(roles), "--frozen", "--force", expect=1)
        assert f"{server.url('web-1.0.tar.gz')} is sha256:" in run.stderr and served_digest in run.stderr
        assert (roles / "web" / "tasks" / "main.yml").read_text() == before


def test_a_missing_tarball_url_is_one_clear_line(tmp_path: Path) -> None:
    with serve(tmp_path) as server:
        requirements = tmp_path / "requirements.yml"
        requirements.write_text(f"- src: {server.url('nowhere.tar.gz')}\n  name: web\n")
        run = Galaxy(tmp_path / "home")("install", "-r", str(requirements), "-p", str(tmp_path / "roles"), expect=1)
    assert f"cannot download {server.url('nowhere.tar.gz')}: HTTP 404" in run.stderr
    assert "Traceback" not in run.output and not (tmp_path / "roles").exists()


def test_an_unsafe_tarball_is_refused_whatever_its_source(tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    served = tmp_path / "served"
    served.mkdir()
    (served / "evil.tar.gz").write_bytes(tarball(ROLE_FILES, top="evil", symlinks={"files/x": "../../../etc"}))
    with serve(served) as server:
        requirements = tmp_path / "requirements.yml"
        requirements.write_text(f"- {server.url('evil.tar.gz')}\n")
        run = galaxy("install", "-r", str(requirements), "-p", str(tmp_path / "roles"), expect=1)
    assert "evil.tar.gz" in run.stderr and "evil/files/x" in run.stderr and "Traceback" not in run.output
    assert not (tmp_path / "roles").exists()


@pytest.mark.parametrize(("entry", "message"), [
    ("- src: x\n  scm: hg\n", "scm: hg is not supported (expected git, or none)"),
    ("- src: ftp://example.com/x.tar.gz\n", "a URL source is downloaded over http, https, file (not ftp)"),
    ("- src: ./missing.tar.gz\n", "missing.tar.gz does not exist (a tarball was expected)"),
])
def test_bad_sources_are_reported_at_their_line(tmp_path: Path, entry: str, message: str) -> None:
    requirements = tmp_path / "requirements.yml"
    requirements.write_text(entry)
    run = Galaxy(tmp_path / "home")("install", "-r", str(requirements), "-p", str(tmp_path / "roles"), expect=4)
    assert f"{requirements}:1:3" in run.stderr and message in run.stderr


def test_same_files_as_ansible_galaxy_for_the_same_requirements(repo: Path, tmp_path: Path) -> None:
    (tmp_path / "web.tar.gz").write_bytes(tarball(ROLE_FILES, top="web-2.0"))
    requirements = tmp_path / "requirements.yml"
    requirements.write_text(f"""roles:
  - src: git+file://{repo}
    version: v1.0
  - src: file://{repo}
    scm: git
    version: dev
    name: branch
  - src: file://{tmp_path}/web.tar.gz
    name: fromtar
""")
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    Galaxy(tmp_path / "home")("install", "-r", str(requirements), "-p", str(ours))
    subprocess.run([str(ansible_binary("ansible-galaxy")), "role", "install", "-r", str(requirements),
                    "-p", str(theirs)], check=True, capture_output=True,
                   env={"HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})

    def files(root: Path) -> dict[str, bytes]:
        return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*"))
                if path.is_file() and ".git" not in path.parts and path.name != ".galaxy_install_info"}

    assert files(ours) == files(theirs)
