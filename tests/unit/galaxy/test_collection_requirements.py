"""The collections: section of requirements.yml as ansible-galaxy reads it, and the lock with collections and git
commits, read back as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError, SourcePosition
from runner.galaxy.collection_requirements import load_collection_requirements
from runner.galaxy.lockfile import Lock, LockedRole, read_lock, write_lock
from runner.galaxy.reference import RoleRef, parse_reference
from runner.galaxy.requirements import fingerprint, load_requirements
from runner.galaxy.sources import GIT, TARBALL, SourceRef

PIN = "sha256:" + "d" * 64


def reader(text: str, position: SourcePosition | None) -> RoleRef:
    return parse_reference(text, registry="reg.example.com", namespace="team")


def test_every_kind_of_collection_entry(tmp_path: Path) -> None:
    (tmp_path / "built.tar.gz").write_bytes(b"")
    (tmp_path / "dev" / "demo_local").mkdir(parents=True)
    path = tmp_path / "requirements.yml"
    path.write_text(f"""collections:
  - demo.tools
  - name: oci://reg.example.com:5000/ops/demo.net
    version: ">=1.0.0,<2.0.0"
  - name: demo.db
    version: "@{PIN}"
  - name: ./built.tar.gz
  - name: https://example.com/demo-web-3.0.0.tar.gz
    type: url
  - name: https://git.example.com/team/demo_lint
    type: git
    version: main
  - name: ./dev/demo_local
    type: dir
roles:
  - oci://reg.example.com/team/redis
""")
    found = load_collection_requirements(path, reader)
    assert [(r.name, r.source, r.wants()) for r in found[:3]] == [
        ("demo.tools", "oci://reg.example.com/team/demo.tools", "*"),
        ("demo.net", "oci://reg.example.com:5000/ops/demo.net", ">=1.0.0,<2.0.0"),
        ("demo.db", "oci://reg.example.com/team/demo.db", f"@{PIN}"),
    ]
    assert [r.origin for r in found[3:6]] == [
        SourceRef(TARBALL, str(tmp_path / "built.tar.gz")),
        SourceRef(TARBALL, "https://example.com/demo-web-3.0.0.tar.gz"),
        SourceRef(GIT, "https://git.example.com/team/demo_lint", "main"),
    ]
    assert found[6].origin == tmp_path / "dev" / "demo_local"
    roles, warnings = load_requirements(path, reader)
    assert [r.name for r in roles] == ["redis"] and warnings == []
    # Collections change the fingerprint; without them it is what a lock of roles alone was written with.
    assert fingerprint(roles, tmp_path, found) != fingerprint(roles, tmp_path) == fingerprint(roles, tmp_path, [])


@pytest.mark.parametrize(("entry", "where", "message"), [
    ("  - name: demo.tools\n    source: https://galaxy.ansible.com\n", (2, 5), "source: names a Galaxy server"),
    ("  - name: demo.tools\n    type: svn\n", (2, 5), "type: svn is not supported"),
    ("  - name: tools\n", (2, 5), "'tools' names no collection: the last part is NAMESPACE.NAME"),
    ("  - name: demo.tools\n    version: '^^1'\n", (2, 5), "'^^1' is not a version constraint"),
    ("  - name: ./missing\n    type: dir\n", (2, 5), "missing is not a directory"),
    ("  - name: demo.tools\n    verison: 1.0.0\n", (3, 5), "'verison' is not a valid collection requirement"),
])
def test_collection_mistakes_at_their_place(tmp_path: Path, entry: str, where: tuple[int, int],
                                            message: str) -> None:
    path = tmp_path / "requirements.yml"
    path.write_text("collections:\n" + entry)
    with pytest.raises(ParseError) as raised:
        load_collection_requirements(path, reader)
    assert message in raised.value.message
    assert raised.value.position == SourcePosition(str(path), *where)


def test_lock_with_collections_and_commits_reads_back(tmp_path: Path) -> None:
    commit = "a" * 40
    lock = Lock("sha256:" + "1" * 64,
                [LockedRole("web", "git+file:///srv/web", "v1.0", PIN, (), commit)],
                [LockedRole("demo.tools", "oci://reg.example.com/team/demo.tools", "1.0.0", PIN, ("demo.base",))])
    path = tmp_path / "requirements.lock"
    assert write_lock(path, lock)
    text = path.read_text()
    assert f"commit: {commit}" in text and "collections:" in text
    assert read_lock(path) == lock
    assert not write_lock(path, lock)  # unchanged: not written again
