"""Connection faults mid-task on test hosts of this module's own (env "faults-conn", 127.0.0.40-42, and a relay
on 127.0.0.45): a host whose sshd session is killed, whose every process is frozen (SIGSTOP: its kernel still
answers TCP, only SSH keepalives notice), or whose network turns into a black hole, is UNREACHABLE (exit 4) while
the other hosts finish their tasks, in playbook and ad-hoc runs and for every way of using the connection (a
module, put, fetch, raw). An SSH option that cannot be honoured makes the host unreachable with a message naming
it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import textwrap
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.connection import ConnectionSettings, HostSession
from runner.errors import ConnectionFailure
from runner.executor.module_call import ModuleCall, execute
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv
from tests.integration.host_faults import (
    BlackHoleRelay,
    frozen,
    kill_agents,
    kill_ssh_sessions,
    wait_for_process,
)
from tests.support.own_env import own_env
from tests.support.scripts import script

pytestmark = pytest.mark.hosts

SLEEP = "sleep 12"  # what the hosts are busy with when the fault comes; never waited for on the faulty host
# A frozen host is given up after two unanswered probes a second apart (the default is 10 s x 3).
FAST_KEEPALIVE = {"PROVISIONING_SSH_KEEPALIVE_INTERVAL": "1", "PROVISIONING_SSH_KEEPALIVE_COUNT_MAX": "2"}
RUN_TIMEOUT = 180  # far above what any run here takes: reaching it means a hang


@pytest.fixture(scope="module")
def env() -> Iterator[TestEnv]:
    yield from own_env("faults-conn", count=3, base_address=40, prefix="fc")


@pytest.fixture
def playbook(tmp_path: Path) -> Path:
    path = tmp_path / "busy.yml"
    path.write_text(textwrap.dedent(f"""\
        - hosts: testhosts
          gather_facts: false
          tasks:
            - name: busy
              command: {SLEEP}
            - name: after
              command: echo after
        """))
    return path


def _start(argv: list[str], env_vars: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, **(env_vars or {})})


def _finish(process: subprocess.Popen[str]) -> str:
    try:
        return process.communicate(timeout=RUN_TIMEOUT)[0]
    except subprocess.TimeoutExpired:
        process.kill()
        output = process.communicate()[0]
        raise AssertionError(f"the run hung:\n{output}") from None


def _playbook_argv(env: TestEnv, playbook: Path, report: Path) -> list[str]:
    return [script("provisioning-playbook"), str(playbook), "-i", str(env.inventory_path),
            "--report", f"json:{report}"]


def _adhoc_argv(env: TestEnv, *args: str) -> list[str]:
    return [script("provisioning"), "testhosts", "-i", str(env.inventory_path), "-o", *args]


def _playbook_results(report: Path) -> dict[str, dict[str, Any]]:
    """Task name -> host -> result."""
    data = json.loads(report.read_text())
    return {task["task"]["name"]: task["hosts"] for play in data["plays"] for task in play["tasks"]}


def _assert_fc2_unreachable_others_done(results: dict[str, dict[str, Any]], reason: str) -> None:
    assert results["busy"]["fc2"]["unreachable"] is True
    assert reason in results["busy"]["fc2"]["msg"]
    for host in ("fc1", "fc3"):
        assert results["busy"][host]["rc"] == 0 and results["after"][host]["stdout"] == "after"
    assert "fc2" not in results["after"]


def test_playbook_session_killed_mid_task(env: TestEnv, playbook: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = _start(_playbook_argv(env, playbook, report))
    wait_for_process(env, "fc2", SLEEP)
    assert kill_ssh_sessions(env, "fc2") >= 1
    output = _finish(run)
    assert run.returncode == 4, output
    assert "internal error" not in output
    _assert_fc2_unreachable_others_done(_playbook_results(report), "lost the connection to 127.0.0.41")


def test_playbook_frozen_host_found_by_keepalive(env: TestEnv, playbook: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    run = _start(_playbook_argv(env, playbook, report), FAST_KEEPALIVE)
    wait_for_process(env, "fc2", SLEEP)
    with frozen(env, "fc2"):  # the run must end while fc2 is still frozen
        output = _finish(run)
    assert run.returncode == 4, output
    _assert_fc2_unreachable_others_done(_playbook_results(report), "not responding to keepalive")


def test_playbook_network_black_hole_found_by_keepalive(env: TestEnv, playbook: Path, tmp_path: Path) -> None:
    """fc2 reached through a relay on 127.0.0.45 that stops passing packets mid-task, both ways."""
    fc2 = next(host for host in env.hosts() if host.name == "fc2")
    relay = BlackHoleRelay(("127.0.0.45", 2222), (fc2.address, 22))
    inventory = tmp_path / "inventory.yml"
    inventory.write_text(env.inventory_path.read_text().replace(
        f"ansible_host: {fc2.address}",
        f"ansible_host: 127.0.0.45\n          ansible_port: 2222\n"
        f"          ansible_ssh_common_args: -o HostKeyAlias={fc2.address}"))
    report = tmp_path / "report.json"
    argv = [script("provisioning-playbook"), str(playbook), "-i", str(inventory), "--report", f"json:{report}"]
    try:
        run = _start(argv, FAST_KEEPALIVE)
        wait_for_process(env, "fc2", SLEEP)
        relay.swallow()
        output = _finish(run)
    finally:
        relay.close()
    assert run.returncode == 4, output
    _assert_fc2_unreachable_others_done(_playbook_results(report), "not responding to keepalive")


def test_unreachable_host_is_ignored_when_asked_and_reconnects(env: TestEnv, tmp_path: Path) -> None:
    playbook = tmp_path / "ignore.yml"
    playbook.write_text(textwrap.dedent(f"""\
        - hosts: fc2
          gather_facts: false
          tasks:
            - name: busy
              command: {SLEEP}
              ignore_unreachable: true
            - name: after
              command: echo after
        """))
    report = tmp_path / "report.json"
    run = _start(_playbook_argv(env, playbook, report))
    wait_for_process(env, "fc2", SLEEP)
    kill_ssh_sessions(env, "fc2")
    output = _finish(run)
    assert run.returncode == 0, output  # as Ansible: an ignored unreachable host is not counted
    results = _playbook_results(report)
    assert results["busy"]["fc2"]["unreachable"] is True
    assert results["after"]["fc2"]["stdout"] == "after"  # a new connection for the next task


@pytest.mark.parametrize("module, kill, reason", [
    ("command", kill_ssh_sessions, "lost the connection to 127.0.0.41"),
    ("raw", kill_ssh_sessions, "lost the connection to 127.0.0.41"),
    ("command", kill_agents, "the agent on fc2 ended unexpectedly"),
])
def test_adhoc_connection_or_agent_killed_mid_task(env: TestEnv, module: str, kill: Callable[[TestEnv, str], int],
                                                   reason: str) -> None:
    run = _start(_adhoc_argv(env, "-m", module, "-a", SLEEP))
    wait_for_process(env, "fc2", SLEEP)
    assert kill(env, "fc2") >= 1
    output = _finish(run)
    assert run.returncode == 4, output
    lines = {line.split(" | ")[0]: line for line in output.splitlines() if " | " in line}
    assert "fc2 | UNREACHABLE!" in lines["fc2"] and reason in lines["fc2"]
    assert "CHANGED" in lines["fc1"] and "CHANGED" in lines["fc3"]


def test_adhoc_frozen_host_found_by_keepalive(env: TestEnv) -> None:
    run = _start(_adhoc_argv(env, "-m", "command", "-a", SLEEP), FAST_KEEPALIVE)
    wait_for_process(env, "fc2", SLEEP)
    with frozen(env, "fc2"):
        output = _finish(run)
    assert run.returncode == 4, output
    lines = {line.split(" | ")[0]: line for line in output.splitlines() if " | " in line}
    assert "UNREACHABLE!" in lines["fc2"] and "not responding to keepalive" in lines["fc2"]
    assert "CHANGED" in lines["fc1"] and "CHANGED" in lines["fc3"]


OPERATIONS: dict[str, Callable[[HostSession], Awaitable[Any]]] = {
    "module": lambda session: session.run_module("ping", {}),
    "put": lambda session: session.put(b"x" * 1_000_000, "/tmp/faults-conn-put"),
    "fetch": lambda session: session.fetch("/etc/hostname"),
    "raw": lambda session: session.raw("true"),
}


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_every_use_of_a_frozen_connection_is_unreachable(env: TestEnv, operation: str) -> None:
    """A connection made, then its host frozen: the next module run, put, fetch or raw command raises
    ConnectionFailure (what the executor reports as UNREACHABLE) once the keepalive gives up, never a hang."""
    host = next(host for host in env.hosts() if host.name == "fc3")
    variables = {"ansible_host": host.address, "ansible_user": "root",
                 "ansible_ssh_private_key_file": str(env.private_key),
                 "provisioning_ssh_known_hosts_file": str(env.known_hosts),
                 "ansible_python_interpreter": "/usr/bin/python3",
                 "provisioning_ssh_keepalive_interval": 1, "provisioning_ssh_keepalive_count_max": 2}
    index = ModuleIndex()
    session = HostSession(ConnectionSettings.from_host_vars("fc3", variables), index)

    async def scenario() -> None:
        assert (await execute(session, index, ModuleCall("ping", {})))["ping"] == "pong"
        try:
            with frozen(env, "fc3"):
                await asyncio.wait_for(OPERATIONS[operation](session), RUN_TIMEOUT)
        finally:
            await session.close()

    with pytest.raises(ConnectionFailure, match=r"lost the connection to 127\.0\.0\.42: .* keepalive"):
        asyncio.run(scenario())


@pytest.mark.parametrize("args, named", [
    ("-o ForwardX11=yes", "ForwardX11=yes"),
    ("-o StrictHostKeyChecking=accept-new", "StrictHostKeyChecking=accept-new"),
    ("-o NoSuchOption=1", "NoSuchOption"),
    ("-L 8080:localhost:80", "-L"),
])
def test_an_option_that_cannot_be_honoured_is_refused_by_name(env: TestEnv, args: str, named: str) -> None:
    run = subprocess.run(_adhoc_argv(env, "-m", "ping", "-e", f"ansible_ssh_common_args='{args}'"),
                         capture_output=True, text=True, timeout=RUN_TIMEOUT)
    assert run.returncode == 4, run.stdout + run.stderr
    for host in ("fc1", "fc2", "fc3"):
        line = next(line for line in run.stdout.splitlines() if line.startswith(f"{host} | "))
        assert "UNREACHABLE!" in line and f"ssh_common_args: ssh option {named}" in line
