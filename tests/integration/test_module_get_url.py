"""get_url on a real test host, downloading from a loopback HTTP server that the tests start."""

from __future__ import annotations

import hashlib
import json
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.http_server import PASSWORD, USER, LoopbackServer, serve
from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoopbackServer]:
    (tmp_path / "hello.txt").write_text("hello\n")
    with serve(tmp_path) as running:
        yield running


@pytest.fixture
def workdir(host: RemoteHost) -> Iterator[str]:
    path = f"/tmp/get-url-{uuid.uuid4().hex[:8]}"
    host.shell(f"mkdir -p {path}")
    yield path
    host.shell(f"rm -rf {path}")


def _sha(data: bytes, algorithm: str = "sha256") -> str:
    return hashlib.new(algorithm, data).hexdigest()


def test_downloads_once_with_mode(host: RemoteHost, testenv, server: LoopbackServer, workdir: str) -> None:
    infra = infra_for(testenv)
    dest = f"{workdir}/hello.txt"
    first = converge(host, "get_url", {"url": server.url("hello.txt"), "dest": dest, "mode": "0640"},
                     state=lambda: infra.file(dest).exists)
    assert first["status_code"] == 200 and first["dest"] == dest
    assert first["checksum_src"] == _sha(b"hello\n", "sha1") and "checksum_dest" not in first
    content, attributes = first["diff"]  # a new file: its content, then the mode it was given
    assert (content["before"], content["after"]) == ("", "hello\n")
    assert attributes["after"] == {"mode": "0640"}
    assert infra.file(dest).content_string == "hello\n" and infra.file(dest).mode == 0o640
    again = host.run("get_url", {"url": server.url("hello.txt"), "dest": dest, "mode": "0640"})
    assert again["msg"] == "file already exists"


def test_existing_file_gets_only_its_attributes_fixed(host: RemoteHost, server: LoopbackServer,
                                                      workdir: str) -> None:
    dest = f"{workdir}/kept.txt"
    host.shell(f"echo local > {dest} && chmod 0600 {dest}")
    result = converge(host, "get_url", {"url": server.url("hello.txt"), "dest": dest, "mode": "0644"})
    assert result["msg"] == "file already exists but file attributes changed"
    assert result["diff"]["before"]["mode"] == "0600" and result["diff"]["after"]["mode"] == "0644"
    assert host.shell(f"cat {dest}") == "local\n"


def test_force_downloads_again_only_when_the_source_changed(host: RemoteHost, server: LoopbackServer,
                                                            workdir: str) -> None:
    dest = f"{workdir}/forced.txt"
    args = {"url": server.url("hello.txt"), "dest": dest, "force": True}
    converge(host, "get_url", args)
    not_modified = host.run("get_url", args)
    assert not_modified["changed"] is False and not_modified["status_code"] == 304
    served = server.root / "hello.txt"
    served.write_text("hello again\n")
    later = time.time() + 3600  # newer than dest, as a server's file updated after the download would be
    os.utime(served, (later, later))
    replaced = host.run("get_url", dict(args, backup=True), diff=True)
    assert replaced["changed"] is True and replaced["status_code"] == 200
    assert replaced["diff"]["before"] == "hello\n" and replaced["diff"]["after"] == "hello again\n"
    assert host.shell(f"cat {dest}") == "hello again\n"
    assert host.shell(f"cat {replaced['backup_file']}") == "hello\n"


def test_checksum_skips_a_matching_file_and_rejects_a_wrong_download(host: RemoteHost, server: LoopbackServer,
                                                                     workdir: str) -> None:
    dest = f"{workdir}/summed.txt"
    good = {"url": server.url("hello.txt"), "dest": dest, "checksum": "sha256:" + _sha(b"hello\n")}
    converge(host, "get_url", good)
    host.shell(f"echo tampered > {dest}")
    repaired = host.run("get_url", good)
    assert repaired["changed"] is True and host.shell(f"cat {dest}") == "hello\n"
    wrong = host.run("get_url", {"url": server.url("hello.txt"), "dest": f"{workdir}/wrong.txt",
                                 "checksum": "sha256:" + "0" * 64})
    assert wrong["failed"] is True and "did not match" in wrong["msg"]
    assert host.shell(f"test -e {workdir}/wrong.txt || echo absent") == "absent\n"


def test_checksum_from_a_checksum_file_url(host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    (server.root / "SHA256SUMS").write_text(f"{'1' * 64}  other.txt\n{_sha(b'hello' + bytes([10]))} *hello.txt\n")
    dest = f"{workdir}/from-sums.txt"
    converge(host, "get_url", {"url": server.url("hello.txt"), "dest": dest,
                               "checksum": "sha256:" + server.url("SHA256SUMS")})
    missing = host.run("get_url", {"url": server.url("SHA256SUMS"), "dest": f"{workdir}/x",
                                   "checksum": "sha256:" + server.url("SHA256SUMS")})
    assert missing["failed"] is True and "Unable to find a checksum for file 'SHA256SUMS'" in missing["msg"]


def test_bad_checksum_argument_names_the_format(host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    result = host.run("get_url", {"url": server.url("hello.txt"), "dest": f"{workdir}/x", "checksum": "abc"})
    assert result["failed"] is True and "<algorithm>:<checksum>" in result["msg"]
    result = host.run("get_url", {"url": server.url("hello.txt"), "dest": f"{workdir}/x", "checksum": "nope:ab"})
    assert result["failed"] is True and "Unsupported checksum algorithm 'nope'" in result["msg"]


def test_directory_dest_names_the_file_from_the_url_or_the_server(host: RemoteHost, server: LoopbackServer,
                                                                  workdir: str) -> None:
    from_url = converge(host, "get_url", {"url": server.url("hello.txt"), "dest": workdir})
    assert from_url["dest"] == f"{workdir}/hello.txt"
    named = converge(host, "get_url", {"url": server.url("named"), "dest": workdir})
    assert named["dest"] == f"{workdir}/given.txt"
    assert host.shell(f"cat {workdir}/given.txt") == "named content\n"


def test_check_mode_predicts_a_download_into_a_directory_an_earlier_task_creates(
        host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    host.run("file", {"path": f"{workdir}/new", "state": "directory"}, check=True)
    predicted = host.run("get_url", {"url": server.url("hello.txt"), "dest": f"{workdir}/new/hello.txt"},
                         check=True)
    assert predicted["changed"] is True and not predicted.get("failed"), predicted
    assert host.shell(f"ls {workdir}") == ""


def test_basic_authentication(host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    url = server.url("auth/hello.txt")
    refused = host.run("get_url", {"url": url, "dest": f"{workdir}/a"})
    assert refused["failed"] is True and refused["status_code"] == 401
    challenged = host.run("get_url", {"url": url, "dest": f"{workdir}/a", "url_username": USER,
                                      "url_password": PASSWORD})
    assert challenged["changed"] is True, challenged
    forced = host.run("get_url", {"url": url, "dest": f"{workdir}/b", "username": USER, "password": PASSWORD,
                                  "force_basic_auth": True})
    assert forced["changed"] is True, forced
    in_url = url.replace("http://", f"http://{USER}:{PASSWORD}@")
    assert host.run("get_url", {"url": in_url, "dest": f"{workdir}/c"})["changed"] is True
    assert PASSWORD not in json.dumps(forced)


def test_headers_and_agent_are_sent(host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    dest = f"{workdir}/echo.json"
    host.run("get_url", {"url": server.url("echo"), "dest": dest, "headers": {"X-Token": "abc"}})
    sent = json.loads(host.shell(f"cat {dest}"))
    assert sent["headers"]["X-Token"] == "abc" and sent["headers"]["User-Agent"] == "provisioning-httpget"


def test_http_errors_and_unreachable_servers_fail_clearly(host: RemoteHost, server: LoopbackServer,
                                                          workdir: str) -> None:
    missing = host.run("get_url", {"url": server.url("nothing-here"), "dest": f"{workdir}/x"})
    assert missing["failed"] is True and missing["status_code"] == 404 and missing["msg"] == "Request failed"
    closed = host.run("get_url", {"url": "http://127.0.0.1:9/x", "dest": f"{workdir}/x", "timeout": 2})
    assert closed["failed"] is True and closed["status_code"] == -1 and "refused" in closed["msg"]
    no_dir = host.run("get_url", {"url": server.url("hello.txt"), "dest": f"{workdir}/none/x"})
    assert no_dir["failed"] is True and no_dir["msg"] == f"Destination {workdir}/none does not exist"


def test_as_deploy_with_become(host_as_deploy: RemoteHost, testenv, server: LoopbackServer) -> None:
    infra = infra_for(testenv)
    dest = f"/root/get-url-{uuid.uuid4().hex[:8]}.txt"
    try:
        converge(host_as_deploy, "get_url", {"url": server.url("hello.txt"), "dest": dest, "owner": "deploy"},
                 state=lambda: infra.file(dest).exists)
        assert infra.file(dest).user == "deploy" and infra.file(dest).content_string == "hello\n"
    finally:
        host_as_deploy.shell(f"rm -f {dest}")
