"""fetch from a test host to the controller: per-host directories and flat, unchanged files not sent again,
skipped in check mode, missing files and directories, and a root-only file through sudo."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.support.remote_harness import RemoteHost


def test_into_a_directory_per_host(host: RemoteHost, scratch: str, tmp_path: Path) -> None:
    host.shell(f"printf 'Port 22\\n' > {scratch}/sshd_config")
    local = tmp_path / "fetched" / host.name / scratch.lstrip("/") / "sshd_config"
    args = {"src": f"{scratch}/sshd_config", "dest": str(tmp_path / "fetched")}
    task_vars = {"inventory_hostname": host.name}
    checked = host.run("fetch", args, check=True, task_vars=task_vars)
    assert checked == {"changed": False, "skipped": True, "msg": "check mode not (yet) supported for this module"}
    assert not local.exists()
    result = host.run("fetch", args, task_vars=task_vars)
    assert result["changed"] is True and host.run("fetch", args, task_vars=task_vars)["changed"] is False
    assert local.read_bytes() == b"Port 22\n" and result["dest"] == str(local)
    assert result["checksum"] == result["remote_checksum"] == hashlib.sha1(b"Port 22\n").hexdigest()
    host.shell(f"printf 'Port 2222\\n' > {scratch}/sshd_config")
    assert host.run("fetch", args, task_vars={"inventory_hostname": host.name})["changed"] is True
    assert local.read_bytes() == b"Port 2222\n"


def test_flat_relative_to_the_playbook(host: RemoteHost, scratch: str, tmp_path: Path) -> None:
    host.shell(f"printf 'cert' > {scratch}/ca.crt")
    variables = {"inventory_hostname": host.name, "playbook_dir": str(tmp_path)}
    flat = {"src": f"{scratch}/ca.crt", "dest": "files/ca.pem", "flat": True}
    assert host.run("fetch", flat, task_vars=variables)["changed"] is True
    assert host.run("fetch", flat, task_vars=variables)["changed"] is False
    assert (tmp_path / "files" / "ca.pem").read_text() == "cert"
    into = host.run("fetch", {"src": f"{scratch}/ca.crt", "dest": "certs/", "flat": True}, task_vars=variables)
    assert into["changed"] and (tmp_path / "certs" / "ca.crt").read_text() == "cert"
    refused = host.run("fetch", {"src": f"{scratch}/ca.crt", "dest": "certs", "flat": True}, task_vars=variables)
    assert refused["failed"] and "use a trailing slash" in refused["msg"]


def test_missing_files_and_directories(host: RemoteHost, scratch: str, tmp_path: Path) -> None:
    missing = host.run("fetch", {"src": f"{scratch}/none", "dest": str(tmp_path)})
    assert missing["failed"] and missing["msg"] == "the remote file does not exist, not transferring, ignored"
    tolerated = host.run("fetch", {"src": f"{scratch}/none", "dest": str(tmp_path), "fail_on_missing": False})
    assert not tolerated.get("failed") and tolerated["changed"] is False and tolerated["file"] == f"{scratch}/none"
    no_dest = host.run("fetch", {"src": f"{scratch}/none"})
    assert no_dest == {"failed": True, "changed": False, "msg": "src and dest are required"}
    not_text = host.run("fetch", {"src": [f"{scratch}/none"], "dest": str(tmp_path)})
    assert not_text["msg"] == "Invalid type supplied for source option, it must be a string"
    directory = host.run("fetch", {"src": scratch, "dest": str(tmp_path)})
    assert directory["failed"] and directory["msg"] == "remote file is a directory, fetch cannot work on directories"
    assert list(tmp_path.iterdir()) == []


def test_root_only_file_through_sudo(host_as_deploy: RemoteHost, scratch: str, tmp_path: Path) -> None:
    host_as_deploy.shell(f"printf 'key' > {scratch}/secret")
    host_as_deploy.shell(f"chmod 0600 {scratch}/secret")
    result = host_as_deploy.run("fetch", {"src": f"{scratch}/secret", "dest": str(tmp_path / "k"), "flat": True})
    assert result["changed"] is True and (tmp_path / "k").read_text() == "key"


def test_a_path_under_a_users_home_named_with_a_tilde(host: RemoteHost, tmp_path: Path) -> None:
    # ~user/... is the host's to expand: the controller's user and home are not the host's
    host.shell("printf 'home' > ~root/fetch-tilde.txt")
    try:
        result = host.run("fetch", {"src": "~root/fetch-tilde.txt", "dest": str(tmp_path / "t"), "flat": True})
        assert result["changed"] is True and (tmp_path / "t").read_text() == "home"
    finally:
        host.shell("rm -f ~root/fetch-tilde.txt")
