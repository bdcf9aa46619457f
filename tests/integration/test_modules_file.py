"""file on a real (local) host: every state, attributes, recursion, timestamps, check mode and diffs."""

from __future__ import annotations

import grp
import os
import pwd
import stat
from pathlib import Path

import pytest

from tests.support.local_host import LocalHost, assert_ok


@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    """This file's modules run on the controller itself, over the local connection."""
    return local_host



def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def nobody_group() -> str:
    return grp.getgrgid(pwd.getpwnam("nobody").pw_gid).gr_name


def test_directory_with_parents_idempotent_and_predicted(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "a" / "b"
    args = {"path": str(path), "state": "directory", "mode": "0750"}
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert not (tmp_path / "a").exists()
    assert predicted["diff"]["before"]["state"] == "absent" and predicted["diff"]["after"]["state"] == "directory"
    first = host.run("file", args, diff=True)
    assert_ok(first, changed=True)
    assert path.is_dir() and mode_of(path) == 0o750 and mode_of(tmp_path / "a") == 0o750
    assert (first["path"], first["state"], first["mode"]) == (str(path), "directory", "0750")
    assert_ok(host.run("file", args, diff=True), changed=False)
    assert_ok(host.run("file", args, check=True, diff=True), changed=False)


def test_mode_change_is_predicted_and_diffed(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("x")
    path.chmod(0o644)
    args = {"path": str(path), "mode": "u=rw,g=,o="}
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert mode_of(path) == 0o644
    assert predicted["diff"]["before"]["mode"] == "0644" and predicted["diff"]["after"]["mode"] == "0600"
    result = host.run("file", args, diff=True)
    assert_ok(result, changed=True)
    assert mode_of(path) == 0o600 and result["state"] == "file"
    assert_ok(host.run("file", args, diff=True), changed=False)


def test_owner_and_group(host: LocalHost, tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("changing owner needs root")
    path = tmp_path / "f"
    path.write_text("x")
    args = {"path": str(path), "owner": "nobody", "group": nobody_group()}
    result = host.run("file", args, diff=True)
    assert_ok(result, changed=True)
    assert path.stat().st_uid == pwd.getpwnam("nobody").pw_uid
    assert (result["owner"], result["group"]) == ("nobody", nobody_group())
    assert result["diff"]["after"]["owner"] == pwd.getpwnam("nobody").pw_uid
    assert_ok(host.run("file", args, diff=True), changed=False)


def test_unknown_owner_fails_before_creating_and_warns_in_check_mode(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "d"
    args = {"path": str(path), "state": "directory", "owner": "no-such-user-here"}
    failed = host.run("file", args, diff=True)
    assert failed["failed"] is True and "no-such-user-here" in failed["msg"] and not path.exists()
    path.mkdir()
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert any("no-such-user-here" in warning for warning in predicted["warnings"])


def test_state_file_never_creates(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("file", {"path": str(tmp_path / "missing"), "state": "file"}, diff=True)
    assert result["failed"] is True and "is absent, cannot continue" in result["msg"]
    default = host.run("file", {"path": str(tmp_path / "missing")}, diff=True)
    assert default["failed"] is True and not (tmp_path / "missing").exists()


def test_touch_creates_and_always_reports_changed(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "stamp"
    args = {"path": str(path), "state": "touch", "mode": "0600"}
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert not path.exists()
    assert_ok(host.run("file", args, diff=True), changed=True)
    assert path.exists() and mode_of(path) == 0o600
    assert_ok(host.run("file", args, check=True, diff=True), changed=True)
    assert_ok(host.run("file", args, diff=True), changed=True)
    preserved = {**args, "modification_time": "preserve", "access_time": "preserve"}
    assert_ok(host.run("file", preserved, diff=True), changed=False)


def test_explicit_timestamps(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("x")
    args = {"path": str(path), "modification_time": "202001021504.05", "access_time": "preserve"}
    result = host.run("file", args, diff=True)
    assert_ok(result, changed=True)
    assert os.path.getmtime(path) == result["diff"]["after"]["mtime"]
    assert Path(path).stat().st_mtime_ns // 10**9 % 60 == 5
    assert_ok(host.run("file", args, diff=True), changed=False)
    bad = host.run("file", {**args, "modification_time": "yesterday"}, diff=True)
    assert bad["failed"] is True and "timestamp" in bad["msg"]


def test_symlink_create_change_and_diff(host: LocalHost, tmp_path: Path) -> None:
    (tmp_path / "v1").mkdir()
    (tmp_path / "v2").mkdir()
    link = tmp_path / "current"
    args = {"path": str(link), "src": "v1", "state": "link"}
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert not link.is_symlink()
    first = host.run("file", args, diff=True)
    assert_ok(first, changed=True)
    assert os.readlink(link) == "v1" and first["dest"] == str(link) and first["src"] == "v1"
    assert_ok(host.run("file", args, diff=True), changed=False)
    moved = host.run("file", {**args, "src": "v2"}, diff=True)
    assert_ok(moved, changed=True)
    assert os.readlink(link) == "v2"
    assert moved["diff"]["before"]["src"] == "v1" and moved["diff"]["after"]["src"] == "v2"


def test_symlink_to_missing_source_needs_force(host: LocalHost, tmp_path: Path) -> None:
    link = tmp_path / "dangling"
    refused = host.run("file", {"path": str(link), "src": "/does/not/exist", "state": "link"}, diff=True)
    assert refused["failed"] is True and "force" in refused["msg"]
    forced = host.run("file", {"path": str(link), "src": "/does/not/exist", "state": "link", "force": True}, diff=True)
    assert_ok(forced, changed=True)
    assert os.readlink(link) == "/does/not/exist"


def test_symlink_refuses_to_replace_a_file_without_force(host: LocalHost, tmp_path: Path) -> None:
    (tmp_path / "target").write_text("t")
    path = tmp_path / "f"
    path.write_text("x")
    refused = host.run("file", {"path": str(path), "src": str(tmp_path / "target"), "state": "link"}, diff=True)
    assert refused["failed"] is True and path.read_text() == "x"
    forced = host.run("file", {"path": str(path), "src": str(tmp_path / "target"), "state": "link", "force": True},
                      diff=True)
    assert_ok(forced, changed=True)
    assert path.is_symlink() and path.read_text() == "t"


def test_hard_link(host: LocalHost, tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.write_text("data")
    path = tmp_path / "hard"
    args = {"path": str(path), "src": str(source), "state": "hard"}
    assert_ok(host.run("file", args, check=True, diff=True), changed=True)
    assert not path.exists()
    result = host.run("file", args, diff=True)
    assert_ok(result, changed=True)
    assert path.stat().st_ino == source.stat().st_ino and result["state"] == "hard"
    assert_ok(host.run("file", args, diff=True), changed=False)
    other = tmp_path / "other"
    other.write_text("o")
    refused = host.run("file", {**args, "src": str(other)}, diff=True)
    assert refused["failed"] is True and path.stat().st_ino == source.stat().st_ino


def test_absent_removes_files_and_trees(host: LocalHost, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "f").write_text("x")
    args = {"path": str(tree), "state": "absent"}
    predicted = host.run("file", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert tree.exists()
    assert predicted["diff"]["before"]["path_content"]["files"] == [str(tree / "sub" / "f")]
    result = host.run("file", args, diff=True)
    assert_ok(result, changed=True)
    assert not tree.exists() and result["state"] == "absent"
    assert_ok(host.run("file", args, diff=True), changed=False)
    link = tmp_path / "link"
    link.symlink_to("/nonexistent")
    assert_ok(host.run("file", {"path": str(link), "state": "absent"}, diff=True), changed=True)
    assert not os.path.lexists(link)


def test_recurse_sets_modes_inside(host: LocalHost, tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    (tree / "sub" / "f").write_text("x")
    (tree / "sub" / "f").chmod(0o666)
    (tree / "sub").chmod(0o777)
    args = {"path": str(tree), "state": "directory", "recurse": True, "mode": "u=rwX,g=rX,o="}
    assert_ok(host.run("file", args, check=True, diff=True), changed=True)
    assert mode_of(tree / "sub" / "f") == 0o666
    assert_ok(host.run("file", args, diff=True), changed=True)
    assert mode_of(tree / "sub") == 0o750 and mode_of(tree / "sub" / "f") == 0o640 and mode_of(tree) == 0o750
    assert_ok(host.run("file", args, diff=True), changed=False)


def test_argument_combinations_are_checked(host: LocalHost, tmp_path: Path) -> None:
    recurse = host.run("file", {"path": str(tmp_path), "state": "file", "recurse": True}, diff=True)
    assert recurse["failed"] is True and "recurse option requires state to be 'directory'" in recurse["msg"]
    src = host.run("file", {"path": str(tmp_path / "x"), "src": "/etc", "state": "directory"}, diff=True)
    assert src["failed"] is True and "src option requires state" in src["msg"]
    bad_mode = host.run("file", {"path": str(tmp_path), "mode": "u=banana"}, diff=True)
    assert bad_mode["failed"] is True and "mode must be in octal or symbolic form" in bad_mode["msg"]


def test_directory_over_a_file_fails(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("x")
    result = host.run("file", {"path": str(path), "state": "directory"}, diff=True)
    assert result["failed"] is True and "already exists as a file" in result["msg"]


def test_diff_only_in_diff_mode_as_ansibles_file_module(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "plain"
    path.write_text("x")
    quiet = host.run("file", {"path": str(path), "mode": "0600"})
    assert_ok(quiet, changed=True)
    assert "diff" not in quiet
    shown = host.run("file", {"path": str(path), "mode": "0640"}, diff=True)
    assert shown["diff"]["after"]["mode"] == "0640"
