"""uri on a real test host, talking to a loopback HTTP server that the tests start."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.http_server import PASSWORD, USER, LoopbackServer, serve
from tests.support.remote_harness import RemoteHost, converge, infra_for


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LoopbackServer]:
    (tmp_path / "data.json").write_text('{"name": "web", "ports": [80, 443]}')
    (tmp_path / "page.txt").write_text("plain page\n")
    with serve(tmp_path) as running:
        yield running


@pytest.fixture
def workdir(host: RemoteHost) -> Iterator[str]:
    path = f"/tmp/uri-{uuid.uuid4().hex[:8]}"
    host.shell(f"mkdir -p {path}")
    yield path
    host.shell(f"rm -rf {path}")


def test_get_returns_status_headers_and_parsed_json(host: RemoteHost, server: LoopbackServer) -> None:
    result = host.run("uri", {"url": server.url("data.json")})
    assert result["changed"] is False and not result.get("failed"), result
    assert result["status"] == 200 and result["url"] == server.url("data.json") and result["redirected"] is False
    assert result["json"] == {"name": "web", "ports": [80, 443]}
    assert result["content_type"] == "application/json" and result["content_length"] == "35"
    assert "content" not in result and result["msg"] == "OK (35 bytes)"


def test_return_content(host: RemoteHost, server: LoopbackServer) -> None:
    result = host.run("uri", {"url": server.url("page.txt"), "return_content": True})
    assert result["content"] == "plain page\n" and "json" not in result


def test_post_json_body_with_headers(host: RemoteHost, server: LoopbackServer) -> None:
    result = host.run("uri", {"url": server.url("echo"), "method": "POST", "body_format": "json",
                              "body": {"name": "web-1", "size": 2}, "headers": {"X-Token": "abc"}})
    sent = result["json"]
    assert sent["method"] == "POST" and json.loads(sent["body"]) == {"name": "web-1", "size": 2}
    assert sent["headers"]["Content-Type"] == "application/json" and sent["headers"]["X-Token"] == "abc"
    assert result["x_echo_count"] == "1"


def test_form_urlencoded_and_raw_bodies(host: RemoteHost, server: LoopbackServer) -> None:
    form = host.run("uri", {"url": server.url("echo"), "method": "PUT", "body_format": "form-urlencoded",
                            "body": {"user": "a b", "tags": ["x", "y"]}})["json"]
    assert form["body"] == "user=a+b&tags=x&tags=y"
    assert form["headers"]["Content-Type"] == "application/x-www-form-urlencoded"
    raw = host.run("uri", {"url": server.url("echo"), "method": "PATCH", "body": "as is",
                           "headers": {"Content-Type": "text/plain"}})["json"]
    assert raw["body"] == "as is" and raw["headers"]["Content-Type"] == "text/plain"
    bad = host.run("uri", {"url": server.url("echo"), "method": "POST", "body": {"a": 1}})
    assert bad["failed"] is True and "body_format" in bad["msg"]


def test_status_code_decides_success(host: RemoteHost, server: LoopbackServer) -> None:
    failed = host.run("uri", {"url": server.url("status/404")})
    assert failed["failed"] is True and failed["status"] == 404
    assert failed["msg"].startswith("Status code was 404 and not [200]") and failed["content"] == "status body\n"
    accepted = host.run("uri", {"url": server.url("status/201"), "status_code": [200, "201"]})
    assert not accepted.get("failed") and accepted["status"] == 201


def test_redirects_follow_the_mode(host: RemoteHost, server: LoopbackServer) -> None:
    followed = host.run("uri", {"url": server.url("redirect/page.txt")})
    assert followed["redirected"] is True and followed["url"] == server.url("page.txt")
    kept = host.run("uri", {"url": server.url("redirect/page.txt"), "follow_redirects": "none",
                            "status_code": [302]})
    assert not kept.get("failed") and kept["status"] == 302 and kept["location"] == "/page.txt"
    post = host.run("uri", {"url": server.url("redirect/echo"), "method": "POST", "body": "x"})
    assert post["failed"] is True and post["status"] == 302  # safe: a POST is not redirected
    post_all = host.run("uri", {"url": server.url("redirect/echo"), "method": "POST", "body": "x",
                                "follow_redirects": "all"})
    assert post_all["status"] == 200 and post_all["redirected"] is True


def test_basic_auth(host: RemoteHost, server: LoopbackServer) -> None:
    url = server.url("auth/page.txt")
    assert host.run("uri", {"url": url})["status"] == 401
    ok = host.run("uri", {"url": url, "user": USER, "password": PASSWORD, "force_basic_auth": True})
    assert ok["status"] == 200 and PASSWORD not in json.dumps(ok)


def test_dest_is_written_once(host: RemoteHost, testenv, server: LoopbackServer, workdir: str) -> None:
    infra = infra_for(testenv)
    dest = f"{workdir}/saved.json"
    result = converge(host, "uri", {"url": server.url("data.json"), "dest": dest, "mode": "0600"},
                      state=lambda: infra.file(dest).exists)
    assert result["path"] == dest and result["status"] == 200
    assert json.loads(infra.file(dest).content_string) == {"name": "web", "ports": [80, 443]}
    assert infra.file(dest).mode == 0o600


def test_creates_and_removes_skip_the_request(host: RemoteHost, server: LoopbackServer, workdir: str) -> None:
    host.shell(f"touch {workdir}/done")
    created = host.run("uri", {"url": server.url("status/500"), "creates": f"{workdir}/done"})
    assert created["changed"] is False and not created.get("failed")
    assert created["msg"] == f"skipped, since '{workdir}/done' exists"
    removed = host.run("uri", {"url": server.url("status/500"), "removes": f"{workdir}/gone"})
    assert removed["msg"] == f"skipped, since '{workdir}/gone' does not exist"


def test_check_mode_sends_only_safe_methods(host: RemoteHost, server: LoopbackServer) -> None:
    probe = host.run("uri", {"url": server.url("data.json")}, check=True)
    assert probe["status"] == 200 and probe["json"]["name"] == "web"
    post = host.run("uri", {"url": server.url("echo"), "method": "POST", "body": "x"}, check=True)
    assert post["skipped"] is True and post["changed"] is False


def test_unreachable_server_is_status_minus_one(host: RemoteHost) -> None:
    result = host.run("uri", {"url": "http://127.0.0.1:9/", "timeout": 2})
    assert result["failed"] is True and result["status"] == -1 and "refused" in result["msg"]


def test_bad_arguments_name_the_argument(host: RemoteHost, server: LoopbackServer) -> None:
    result = host.run("uri", {"url": server.url("x"), "body_format": "xml"})
    assert result["failed"] is True and "body_format" in result["msg"]
    result = host.run("uri", {"url": server.url("x"), "follow_redirects": "maybe"})
    assert result["failed"] is True and "follow_redirects" in result["msg"]
