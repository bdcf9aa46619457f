"""slurp on a test host: content base64-encoded, binary content intact, clear failures, and a root-only file
read as deploy through sudo."""

from __future__ import annotations

import base64

from tests.support.remote_harness import RemoteHost


def test_content_is_base64(host: RemoteHost, scratch: str) -> None:
    path = f"{scratch}/motd"
    host.shell(f"printf 'hello\\nworld\\n' > {path}")
    result = host.run("slurp", {"src": path})
    assert result["changed"] is False and result["encoding"] == "base64" and result["source"] == path
    assert base64.b64decode(result["content"]) == b"hello\nworld\n"
    host.shell(f"head -c 256 /dev/urandom > {path}.bin")
    raw = host.shell(f"od -An -tx1 -v {path}.bin").split()
    assert base64.b64decode(host.run("slurp", {"path": f"{path}.bin"})["content"]) == bytes.fromhex("".join(raw))


def test_failures_name_the_file(host: RemoteHost, scratch: str) -> None:
    assert host.run("slurp", {"src": f"{scratch}/none"})["msg"] == f"File not found: {scratch}/none"
    assert host.run("slurp", {"src": scratch})["msg"] == f"Source is a directory and must be a file: {scratch}"
    assert host.run("slurp", {})["msg"] == "missing required arguments: src"


def test_root_only_file_through_sudo(host_as_deploy: RemoteHost, scratch: str) -> None:
    path = f"{scratch}/secret"
    host_as_deploy.shell(f"printf 's3cret' > {path}")
    host_as_deploy.shell(f"chmod 0600 {path}")
    assert base64.b64decode(host_as_deploy.run("slurp", {"src": path})["content"]) == b"s3cret"
