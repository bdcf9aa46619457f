"""stat on a real (local) host."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.local_host import LocalHost, assert_ok


@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    """This file's modules run on the controller itself, over the local connection."""
    return local_host



def test_regular_file(host: LocalHost, tmp_path: Path) -> None:
    path = tmp_path / "f.txt"
    path.write_text("hello\n")
    path.chmod(0o640)
    result = host.run("stat", {"path": str(path)})
    assert_ok(result, changed=False)
    info = result["stat"]
    assert info["exists"] is True and info["path"] == str(path)
    assert (info["mode"], info["isreg"], info["isdir"], info["islnk"], info["size"]) == ("0640", True, False, False, 6)
    assert (info["rusr"], info["wusr"], info["xusr"], info["rgrp"], info["woth"]) == (True, True, False, True, False)
    assert info["uid"] == os.getuid() and info["pw_name"] and info["gr_name"]
    assert info["checksum"] == hashlib.sha1(b"hello\n").hexdigest()
    assert info["mtime"] == path.stat().st_mtime and info["inode"] == path.stat().st_ino
    assert info["device_type"] == 0  # Ansible's stat gives st_rdev for every file, not only devices
    assert info["readable"] is True and info["executable"] is False
    assert info["mimetype"] == "text/plain" and "charset" in info


def test_missing_path(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("stat", {"path": str(tmp_path / "nope")})
    assert_ok(result, changed=False)
    assert result["stat"] == {"exists": False}


def test_directory_and_checksum_options(host: LocalHost, tmp_path: Path) -> None:
    info = host.run("stat", {"path": str(tmp_path), "get_mime": False})["stat"]
    assert info["isdir"] is True and "checksum" not in info and "mimetype" not in info
    path = tmp_path / "f"
    path.write_bytes(b"abc")
    sha256 = host.run("stat", {"path": str(path), "checksum_algorithm": "sha256"})["stat"]
    assert sha256["checksum"] == hashlib.sha256(b"abc").hexdigest()
    plain = host.run("stat", {"path": str(path), "get_checksum": False, "get_attributes": False})["stat"]
    assert "checksum" not in plain and "attributes" not in plain


def test_symlink_with_and_without_follow(host: LocalHost, tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_text("t")
    link = tmp_path / "link"
    link.symlink_to("target")
    info = host.run("stat", {"path": str(link)})["stat"]
    assert info["islnk"] is True and info["isreg"] is False
    assert info["lnk_target"] == "target" and info["lnk_source"] == str(target)
    followed = host.run("stat", {"path": str(link), "follow": True})["stat"]
    assert followed["islnk"] is False and followed["isreg"] is True and followed["size"] == 1


def test_attributes_are_reported_like_lsattr(host: LocalHost, tmp_path: Path) -> None:
    lsattr = shutil.which("lsattr")
    if lsattr is None:
        pytest.skip("no lsattr to compare with")
    path = tmp_path / "f"
    path.write_text("x")
    info = host.run("stat", {"path": str(path)})["stat"]
    shown = subprocess.run([lsattr, "-d", str(path)], capture_output=True, text=True)
    if shown.returncode != 0:
        assert "attributes" not in info  # the file system keeps no inode flags
        return
    assert info["attr_flags"] == shown.stdout.split()[0].replace("-", "")
    assert len(info["attributes"]) == len(info["attr_flags"])
