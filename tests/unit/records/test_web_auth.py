"""Who ``provisioning-runs serve`` lets in: a token, bcrypt-hashed users, loopback only without --auth; and
the options refused before anything listens (exit 5), each with a clear message."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import bcrypt
import pytest

from runner.errors import OptionError
from runner.records.web.access import TOKEN_ENV, make_access
from tests.support.records import run_in_process, runs_command, write
from tests.support.records_web import basic, fetch, serving
from tests.support.scripts import script

TOKEN = "s3cret-token-0123456789abcdef"
PASSWORD = "open sesame, at last"


@pytest.fixture(scope="module")
def database(tmp_path_factory: pytest.TempPathFactory) -> str:
    project = tmp_path_factory.mktemp("records-web-auth")
    path = str(project / "runs.db")
    playbook = write(project, "ping.yml", "- hosts: localhost\n  gather_facts: false\n  tasks:\n    - ping:\n")
    assert run_in_process(playbook, path).exit_code == 0
    return path


@pytest.fixture
def password_file(tmp_path: Path) -> Path:
    # Few rounds: the test checks the scheme, not bcrypt's cost.
    hashed = bcrypt.hashpw(PASSWORD.encode(), bcrypt.gensalt(rounds=4)).decode()
    return write(tmp_path, "users", f"# who may read the runs\nalice:{hashed}\n")


@pytest.fixture
def token_server(database: str, tmp_path: Path) -> Iterator[str]:
    token_file = write(tmp_path, "token", TOKEN + "\n")
    with serving(database, make_access("token", "127.0.0.1", token_file=token_file, password_file=None)) as url:
        yield url


def test_token_none_or_bad_is_401_right_is_200(token_server: str) -> None:
    for path in ("/api/runs", "/", "/runs/1", "/static/app.css"):
        refused = fetch(token_server + path)
        assert refused.status == 401 and refused.headers["WWW-Authenticate"].startswith("Basic realm=")
    assert fetch(f"{token_server}/api/runs").json() == {"error": "authentication required"}
    wrong_ones = ("Bearer nope", f"Bearer {TOKEN}x", f"Token {TOKEN}", "Basic !!!",
                  basic("me", "nope")["Authorization"])
    for wrong in wrong_ones:
        assert fetch(f"{token_server}/api/runs", headers={"Authorization": wrong}).status == 401, wrong
    assert fetch(f"{token_server}/api/runs", headers={"Authorization": f"Bearer {TOKEN}"}).status == 200
    # A browser asks for it as Basic auth's password (any user name).
    assert fetch(f"{token_server}/runs/1", headers=basic("anyone", TOKEN)).status == 200


def test_token_from_the_environment(database: str) -> None:
    access = make_access("token", "127.0.0.1", token_file=None, password_file=None, environ={TOKEN_ENV: TOKEN})
    with serving(database, access) as url:
        assert fetch(f"{url}/api/runs").status == 401
        assert fetch(f"{url}/api/runs", headers={"Authorization": f"Bearer {TOKEN}"}).status == 200


def test_basic_users_from_a_bcrypt_password_file(database: str, password_file: Path) -> None:
    access = make_access("basic", "127.0.0.1", token_file=None, password_file=password_file)
    with serving(database, access) as url:
        assert fetch(f"{url}/api/runs").status == 401
        assert fetch(f"{url}/api/runs", headers=basic("alice", "wrong")).status == 401
        assert fetch(f"{url}/api/runs", headers=basic("bob", PASSWORD)).status == 401
        assert fetch(f"{url}/api/runs", headers={"Authorization": f"Bearer {PASSWORD}"}).status == 401
        for _ in range(2):  # the second time from what bcrypt already verified
            assert fetch(f"{url}/api/runs", headers=basic("alice", PASSWORD)).status == 200
        assert fetch(f"{url}/api/runs", headers=basic("alice", "wrong")).status == 401


def test_without_auth_only_this_machine_is_answered(database: str) -> None:
    with serving(database) as url:
        assert fetch(f"{url}/api/runs").status == 200
        assert fetch(f"{url}/api/runs", headers={"Host": "localhost:8080"}).status == 200
        # A page elsewhere whose name resolves to 127.0.0.1 (DNS rebinding) sends its own name as the Host.
        rebound = fetch(f"{url}/api/runs", headers={"Host": "attacker.example:8080"})
        assert rebound.status == 403 and "localhost only" in rebound.json()["error"]


def test_a_non_loopback_address_needs_auth() -> None:
    with pytest.raises(OptionError, match="not a loopback address"):
        make_access("none", "0.0.0.0", token_file=None, password_file=None)
    assert make_access("none", "localhost", token_file=None, password_file=None).mode == "none"
    assert make_access("none", "::1", token_file=None, password_file=None).mode == "none"
    access = make_access("token", "0.0.0.0", token_file=None, password_file=None, environ={TOKEN_ENV: TOKEN})
    assert access.mode == "token"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--host", "0.0.0.0"], "--host 0.0.0.0: not a loopback address: serving the run records beyond this "
                            "machine needs --auth token or --auth basic"),
    (["--auth", "token"], f"--auth token needs a token: --token-file PATH or the {TOKEN_ENV} variable"),
    (["--auth", "basic"], "--auth basic needs --password-file"),
    (["--auth", "token", "--token-file", "/nonexistent/token"], "cannot read it"),
    (["--port", "70000"], "70000 is not in the range 0<=x<=65535"),
])
def test_bad_options_are_refused_with_exit_5(database: str, arguments: list[str], message: str) -> None:
    done = runs_command(database, "serve", *arguments)
    assert done.returncode == 5 and message in done.stderr and "Traceback" not in done.stderr


def test_a_short_token_and_a_bad_password_file_are_refused(database: str, tmp_path: Path) -> None:
    short = write(tmp_path, "short", "abc\n")
    done = runs_command(database, "serve", "--auth", "token", "--token-file", str(short))
    assert done.returncode == 5 and "shorter than 16 characters" in done.stderr
    users = write(tmp_path, "users", "# users\nalice:plaintext\n")
    done = runs_command(database, "serve", "--auth", "basic", "--password-file", str(users))
    assert done.returncode == 5 and f"{users}:2:1: expected user:bcrypt-hash" in done.stderr


def test_a_busy_port_is_an_error_not_a_traceback(database: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        done = runs_command(database, "serve", "--port", str(taken.getsockname()[1]))
    assert done.returncode == 1 and "cannot listen on 127.0.0.1:" in done.stderr and "Traceback" not in done.stderr


def test_the_command_serves_until_stopped(database: str) -> None:
    server = subprocess.Popen([script("provisioning-runs"), "--database", database, "serve", "--port", "0"],
                              stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert server.stderr is not None
        announced = server.stderr.readline()
        assert announced.startswith(f"serving the run records of {database} at http://127.0.0.1:"), announced
        url = announced.split(" at ", 1)[1].split("/ ", 1)[0]
        assert fetch(f"{url}/api/runs").json()["total"] == 1
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 143
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
