"""copy on a real (local) host: content, controller files and trees, large streamed files, remote_src."""

from __future__ import annotations

import grp
import hashlib
import os
import pwd
import stat
from pathlib import Path

import pytest

from tests.support.local_host import LocalHost, assert_ok

LARGE = 3 * (1 << 20) + 123  # above the inline limit: streamed

@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    """This file's modules run on the controller itself, over the local connection."""
    return local_host



def sha1(data: bytes) -> str:
    return hashlib.sha1(data).hexdigest()


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A controller-side project: files/ holds what tasks copy."""
    root = tmp_path / "project"
    (root / "files" / "site" / "css").mkdir(parents=True)
    (root / "files" / "motd").write_text("welcome\n")
    (root / "files" / "site" / "index.html").write_text("<h1>hi</h1>\n")
    (root / "files" / "site" / "css" / "main.css").write_text("body {}\n")
    return root


def test_content_first_changed_then_unchanged(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "app.conf"
    args = {"content": "listen 1\n", "dest": str(dest), "mode": "0640"}
    first = host.run("copy", args)
    assert_ok(first, changed=True)
    assert dest.read_text() == "listen 1\n" and mode_of(dest) == 0o640
    assert first["checksum"] == sha1(b"listen 1\n") and first["md5sum"] == hashlib.md5(b"listen 1\n").hexdigest()
    assert (first["dest"], first["size"], first["mode"], first["state"]) == (str(dest), 9, "0640", "file")
    assert first["owner"] == pwd.getpwuid(os.getuid()).pw_name and first["uid"] == os.getuid()
    assert_ok(host.run("copy", args), changed=False)


def test_content_check_mode_predicts_and_touches_nothing(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "app.conf"
    args = {"content": "a\n", "dest": str(dest)}
    predicted = host.run("copy", args, check=True, diff=True)
    assert_ok(predicted, changed=True)
    assert not dest.exists()
    assert predicted["diff"]["before"] == "" and predicted["diff"]["after"] == "a\n"
    assert_ok(host.run("copy", args), changed=True)
    assert_ok(host.run("copy", args, check=True), changed=False)
    dest.write_text("b\n")
    changed = host.run("copy", args, check=True, diff=True)
    assert_ok(changed, changed=True)
    assert changed["diff"]["before"] == "b\n" and dest.read_text() == "b\n"


def test_content_as_a_dict_is_written_as_json(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "data.json"
    assert_ok(host.run("copy", {"content": {"a": [1, 2]}, "dest": str(dest)}), changed=True)
    assert dest.read_text() == '{"a": [1, 2]}'


def test_backup_keeps_the_previous_file(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "motd"
    dest.write_text("old\n")
    result = host.run("copy", {"content": "new\n", "dest": str(dest), "backup": True}, diff=True)
    assert_ok(result, changed=True)
    assert Path(result["backup_file"]).read_text() == "old\n" and dest.read_text() == "new\n"
    assert result["diff"]["before"] == "old\n" and result["diff"]["after"] == "new\n"
    again = host.run("copy", {"content": "new\n", "dest": str(dest), "backup": True})
    assert_ok(again, changed=False)
    assert "backup_file" not in again


def test_src_from_files_dir_with_mode_owner_group(host: LocalHost, project: Path, tmp_path: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("changing owner needs root")
    dest = tmp_path / "etc_motd"
    group = grp.getgrgid(pwd.getpwnam("nobody").pw_gid).gr_name
    args = {"src": "motd", "dest": str(dest), "owner": "nobody", "group": group, "mode": 0o600}
    predicted = host.run("copy", args, search_paths=[project], check=True)
    assert_ok(predicted, changed=True)
    assert not dest.exists()
    first = host.run("copy", args, search_paths=[project])
    assert_ok(first, changed=True)
    assert dest.read_text() == "welcome\n" and first["src"] == str(project / "files" / "motd")
    assert (first["owner"], first["group"], first["mode"]) == ("nobody", group, "0600")
    assert_ok(host.run("copy", args, search_paths=[project]), changed=False)
    assert_ok(host.run("copy", {**args, "mode": "u=rw,g=r"}, search_paths=[project]), changed=True)
    assert mode_of(dest) == 0o640


def test_attributes_alone_are_fixed_and_predicted(host: LocalHost, project: Path, tmp_path: Path) -> None:
    dest = tmp_path / "motd"
    assert_ok(host.run("copy", {"src": "motd", "dest": str(dest), "mode": "0644"}, search_paths=[project]), True)
    args = {"src": "motd", "dest": str(dest), "mode": "0600"}
    assert_ok(host.run("copy", args, search_paths=[project], check=True), changed=True)
    assert mode_of(dest) == 0o644
    assert_ok(host.run("copy", args, search_paths=[project]), changed=True)
    assert mode_of(dest) == 0o600


def test_mode_preserve_takes_the_source_mode(host: LocalHost, project: Path, tmp_path: Path) -> None:
    script = project / "files" / "run.sh"
    script.write_text("#!/bin/sh\n")
    script.chmod(0o751)
    dest = tmp_path / "run.sh"
    assert_ok(host.run("copy", {"src": "run.sh", "dest": str(dest), "mode": "preserve"}, search_paths=[project]),
              changed=True)
    assert mode_of(dest) == 0o751


def test_dest_directory_receives_the_file_by_name(host: LocalHost, project: Path, tmp_path: Path) -> None:
    result = host.run("copy", {"src": "motd", "dest": str(tmp_path)}, search_paths=[project])
    assert_ok(result, changed=True)
    assert (tmp_path / "motd").read_text() == "welcome\n" and result["dest"] == str(tmp_path / "motd")
    created = host.run("copy", {"src": "motd", "dest": f"{tmp_path}/new/"}, search_paths=[project])
    assert_ok(created, changed=True)
    assert (tmp_path / "new" / "motd").read_text() == "welcome\n"


def test_directory_without_slash_copies_the_directory(host: LocalHost, project: Path, tmp_path: Path) -> None:
    dest = tmp_path / "www"
    args = {"src": "site", "dest": str(dest), "directory_mode": "0750"}
    predicted = host.run("copy", args, search_paths=[project], check=True)
    assert_ok(predicted, changed=True)
    assert not dest.exists()
    first = host.run("copy", args, search_paths=[project])
    assert_ok(first, changed=True)
    assert (dest / "site" / "index.html").read_text() == "<h1>hi</h1>\n"
    assert (dest / "site" / "css" / "main.css").read_text() == "body {}\n"
    assert mode_of(dest / "site" / "css") == 0o750
    assert_ok(host.run("copy", args, search_paths=[project]), changed=False)
    assert_ok(host.run("copy", args, search_paths=[project], check=True), changed=False)


def test_directory_with_slash_copies_its_contents(host: LocalHost, project: Path, tmp_path: Path) -> None:
    dest = tmp_path / "html"
    args = {"src": "site/", "dest": str(dest)}
    result = host.run("copy", args, search_paths=[project], diff=True)
    assert_ok(result, changed=True)
    assert (dest / "index.html").exists() and (dest / "css" / "main.css").exists()
    assert not (dest / "site").exists()
    assert sorted(d["before_header"] for d in result["diff"]) == [str(dest / "css" / "main.css"),
                                                                  str(dest / "index.html")]
    (dest / "index.html").write_text("changed\n")
    again = host.run("copy", args, search_paths=[project])
    assert_ok(again, changed=True)
    assert (dest / "index.html").read_text() == "<h1>hi</h1>\n"


def test_tree_symlinks_follow_or_stay_links(host: LocalHost, project: Path, tmp_path: Path) -> None:
    (project / "files" / "site" / "home.html").symlink_to("index.html")
    followed = tmp_path / "followed"
    assert_ok(host.run("copy", {"src": "site/", "dest": str(followed)}, search_paths=[project]), changed=True)
    assert not (followed / "home.html").is_symlink() and (followed / "home.html").read_text() == "<h1>hi</h1>\n"
    kept = tmp_path / "kept"
    args = {"src": "site/", "dest": str(kept), "local_follow": False}
    assert_ok(host.run("copy", args, search_paths=[project]), changed=True)
    assert os.readlink(kept / "home.html") == "index.html"
    assert_ok(host.run("copy", args, search_paths=[project]), changed=False)


def test_large_file_is_streamed_once(host: LocalHost, project: Path, tmp_path: Path) -> None:
    data = os.urandom(LARGE)
    (project / "files" / "blob.bin").write_bytes(data)
    dest = tmp_path / "blob.bin"
    args = {"src": "blob.bin", "dest": str(dest), "mode": "0600"}
    predicted = host.run("copy", args, search_paths=[project], check=True)
    assert_ok(predicted, changed=True)
    assert not dest.exists()
    first = host.run("copy", args, search_paths=[project])
    assert_ok(first, changed=True)
    assert dest.read_bytes() == data and first["checksum"] == sha1(data) and first["size"] == LARGE
    assert mode_of(dest) == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "an upload temp file was left behind"
    assert_ok(host.run("copy", args, search_paths=[project]), changed=False)
    dest.write_bytes(b"damaged")
    backup = host.run("copy", {**args, "backup": True}, search_paths=[project])
    assert_ok(backup, changed=True)
    assert dest.read_bytes() == data and Path(backup["backup_file"]).read_bytes() == b"damaged"


def test_rejected_large_file_leaves_no_upload_behind(host: LocalHost, project: Path, tmp_path: Path) -> None:
    (project / "files" / "blob.bin").write_bytes(os.urandom(LARGE))
    out = tmp_path / "out"
    out.mkdir()
    result = host.run("copy", {"src": "blob.bin", "dest": str(out / "blob.bin"), "validate": "false %s"},
                      search_paths=[project])
    assert result["failed"] is True and result["msg"] == "failed to validate"
    assert list(out.iterdir()) == []


def test_large_file_inside_a_tree(host: LocalHost, project: Path, tmp_path: Path) -> None:
    data = os.urandom(LARGE)
    (project / "files" / "site" / "css" / "big.bin").write_bytes(data)
    dest = tmp_path / "www"
    args = {"src": "site/", "dest": str(dest)}
    assert_ok(host.run("copy", args, search_paths=[project]), changed=True)
    assert (dest / "css" / "big.bin").read_bytes() == data and (dest / "index.html").exists()
    assert_ok(host.run("copy", args, search_paths=[project]), changed=False)


def test_binary_small_file(host: LocalHost, project: Path, tmp_path: Path) -> None:
    data = bytes(range(256)) * 4
    (project / "files" / "small.bin").write_bytes(data)
    dest = tmp_path / "small.bin"
    result = host.run("copy", {"src": "small.bin", "dest": str(dest)}, search_paths=[project], diff=True)
    assert_ok(result, changed=True)
    assert dest.read_bytes() == data and "binary" in result["diff"]["after"]


def test_force_false_keeps_an_existing_file(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "conf"
    dest.write_text("mine\n")
    assert_ok(host.run("copy", {"content": "theirs\n", "dest": str(dest), "force": False}), changed=False)
    assert dest.read_text() == "mine\n"


def test_validate_guards_the_destination(host: LocalHost, tmp_path: Path) -> None:
    dest = tmp_path / "conf"
    dest.write_text("good\n")
    rejected = host.run("copy", {"content": "bad\n", "dest": str(dest), "validate": "grep -q good %s"})
    assert rejected["failed"] is True and rejected["msg"] == "failed to validate"
    assert dest.read_text() == "good\n"
    assert [p.name for p in tmp_path.iterdir()] == ["conf"]
    accepted = host.run("copy", {"content": "good too\n", "dest": str(dest), "validate": "grep -q good %s"})
    assert_ok(accepted, changed=True)
    assert dest.read_text() == "good too\n"


def test_checksum_mismatch_fails(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("copy", {"content": "x", "dest": str(tmp_path / "x"), "checksum": "0" * 40})
    assert result["failed"] is True and "checksum" in result["msg"]
    assert not (tmp_path / "x").exists()


def test_missing_src_and_missing_parent_fail(host: LocalHost, project: Path, tmp_path: Path) -> None:
    missing = host.run("copy", {"src": "nope.txt", "dest": str(tmp_path / "x")}, search_paths=[project])
    assert missing["failed"] is True and "Could not find or access 'nope.txt'" in missing["msg"]
    orphan = host.run("copy", {"content": "x", "dest": str(tmp_path / "no" / "x")})
    assert orphan["failed"] is True and "Destination directory" in orphan["msg"]


def test_remote_src_file_and_directory(host: LocalHost, tmp_path: Path) -> None:
    source = tmp_path / "source"
    (source / "sub").mkdir(parents=True)
    (source / "a.txt").write_text("a\n")
    (source / "sub" / "b.txt").write_text("b\n")
    single = tmp_path / "a.copy"
    args = {"src": str(source / "a.txt"), "dest": str(single), "remote_src": True}
    assert_ok(host.run("copy", args, check=True), changed=True)
    assert not single.exists()
    assert_ok(host.run("copy", args), changed=True)
    assert single.read_text() == "a\n" and (source / "a.txt").exists()
    assert_ok(host.run("copy", args), changed=False)
    tree = tmp_path / "tree"
    tree_args = {"src": str(source), "dest": str(tree), "remote_src": True}
    assert_ok(host.run("copy", tree_args), changed=True)
    assert (tree / "source" / "sub" / "b.txt").read_text() == "b\n"
    assert_ok(host.run("copy", tree_args), changed=False)


def test_follow_writes_through_a_symlinked_dest(host: LocalHost, tmp_path: Path) -> None:
    target = tmp_path / "real"
    target.write_text("old\n")
    link = tmp_path / "link"
    link.symlink_to(target)
    assert_ok(host.run("copy", {"content": "new\n", "dest": str(link), "follow": True}), changed=True)
    assert link.is_symlink() and target.read_text() == "new\n"
