"""requirements.yml as Ansible writes it plus OCI sources, and the lock file, read back as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError, SourcePosition
from runner.galaxy.lockfile import Lock, LockedRole, read_lock, render_lock, write_lock
from runner.galaxy.reference import RoleRef, parse_reference
from runner.galaxy.requirements import fingerprint, load_requirements
from runner.galaxy.skeleton import init_role

PIN = "sha256:" + "c" * 64


def reader(text: str, position: SourcePosition | None) -> RoleRef:
    return parse_reference(text, registry="reg.example.com", namespace="provisioning-extensions")


def load(tmp_path: Path, text: str) -> list:
    path = tmp_path / "requirements.yml"
    path.write_text(text)
    return load_requirements(path, reader)[0]


def test_every_kind_of_entry(tmp_path: Path) -> None:
    init_role("os", tmp_path / "dev")
    found = load(tmp_path, f"""roles:
  - oci://reg.example.com:5000/team/redis:^1.2
  - src: oci://reg.example.com/team/etcd
    version: ">=3.5,<4"
  - src: oci://reg.example.com/team/nginx@{PIN}
  - name: containerd
    version: 1.7.2
  - src: geerlingguy.java
  - src: ./dev/os
    name: base
  - src: oci://reg.example.com/team/pg
    version: "@{PIN}"
""")
    rows = [(r.name, r.source, r.wants()) for r in found]
    assert rows == [
        ("redis", "oci://reg.example.com:5000/team/redis", "^1.2"),
        ("etcd", "oci://reg.example.com/team/etcd", ">=3.5,<4"),
        ("nginx", "oci://reg.example.com/team/nginx", f"@{PIN}"),
        ("containerd", "oci://reg.example.com/provisioning-extensions/containerd", "1.7.2"),
        ("geerlingguy.java", "oci://reg.example.com/geerlingguy/java", "*"),
        ("base", str((tmp_path / "dev" / "os").resolve()), "*"),
        ("pg", "oci://reg.example.com/team/pg", f"@{PIN}"),
    ]
    assert found[0].position == SourcePosition(str(tmp_path / "requirements.yml"), 2, 5)


def test_git_and_tarball_sources_as_ansible_galaxy_reads_them(tmp_path: Path) -> None:
    (tmp_path / "local.tar.gz").write_bytes(b"")
    found = load(tmp_path, """roles:
  - src: git+https://git.example.com/team/nginx.git
    version: v1.2
  - src: https://git.example.com/team/redis.git
  - src: https://git.example.com/team/etcd
    scm: git
    version: main
    name: kv
  - src: git@git.example.com:team/pg.git
  - src: https://example.com/releases/os-1.0.tar.gz
    name: os
  - file:///srv/roles/ntp.tgz
  - ./local.tar.gz
  - git+file:///srv/git/app.git,v2.0,application
  - cache:>=1.0,<2
""")
    rows = [(r.name, r.source, r.version) for r in found]
    assert rows == [
        ("nginx", "git+https://git.example.com/team/nginx.git", "v1.2"),
        ("redis", "git+https://git.example.com/team/redis.git", None),
        ("kv", "git+https://git.example.com/team/etcd", "main"),
        ("pg", "git@git.example.com:team/pg.git", None),
        ("os", "https://example.com/releases/os-1.0.tar.gz", None),
        ("ntp", "file:///srv/roles/ntp.tgz", None),
        ("local", str(tmp_path / "local.tar.gz"), None),
        ("application", "git+file:///srv/git/app.git", "v2.0"),
        ("cache", "oci://reg.example.com/provisioning-extensions/cache", None),
    ]
    assert found[-1].wants() == ">=1.0,<2"
    assert fingerprint(found, tmp_path) != fingerprint(found[:-1], tmp_path)


@pytest.mark.parametrize(("text", "where", "message"), [
    ("- src: ssh://example.com/y.tar.gz\n", (1, 3), "is downloaded over http, https, file (not ssh)"),
    ("- src: x\n  scm: svn\n", (1, 3), "scm: svn is not supported (expected git, or none)"),
    ("- src: x\n  verison: 1.0.0\n", (2, 3), "'verison' is not a valid requirement keyword"),
    ("- redis:^^1\n", (1, 3), "'^^1' is not a version constraint"),
    ("- src: ./missing\n", (1, 3), "is not a role directory"),
    ("- redis\n- src: oci://reg.example.com/other/redis\n", (2, 3), "the role 'redis' is required twice"),
    ("roles: {a: 1}\n", (1, 8), "expected a list of roles"),
    ("dependencies: []\n", (1, 1), "'dependencies' is not a requirements key"),
])
def test_mistakes_are_reported_at_their_place(tmp_path: Path, text: str, where: tuple[int, int],
                                              message: str) -> None:
    with pytest.raises(ParseError) as raised:
        load(tmp_path, text)
    assert message in raised.value.message
    assert (raised.value.position.line, raised.value.position.column) == where


def test_the_fingerprint_changes_with_what_is_asked(tmp_path: Path) -> None:
    first = fingerprint(load(tmp_path, "- redis:^1.2\n"), tmp_path)
    assert fingerprint(load(tmp_path, "- redis:^1.2\n"), tmp_path) == first
    assert fingerprint(load(tmp_path, "- redis:^1.3\n"), tmp_path) != first


def test_the_lock_reads_back_as_written_and_is_not_rewritten_unchanged(tmp_path: Path) -> None:
    lock = Lock("sha256:" + "f" * 64, [
        LockedRole("os", "dev/os", None, "sha256:" + "1" * 64),
        LockedRole("redis", "oci://reg.example.com/team/redis", "1.2.3", PIN, ("os",)),
    ])
    path = tmp_path / "requirements.lock"
    assert write_lock(path, lock) is True
    assert read_lock(path) == lock
    assert write_lock(path, lock) is False
    assert f"  digest: {PIN}\n" in render_lock(lock)


def test_a_broken_lock_is_reported_at_its_place(tmp_path: Path) -> None:
    path = tmp_path / "requirements.lock"
    path.write_text("lock_version: 1\nrequirements: x\nroles:\n  - name: redis\n    source: oci://r/t/redis\n")
    with pytest.raises(ParseError) as raised:
        read_lock(path)
    assert "missing required keyword 'digest'" in raised.value.message
    assert raised.value.position.line == 4
