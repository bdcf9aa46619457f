"""The local provider: servers as local test hosts under a state directory of the test's own. Creating one
gives a host that answers SSH; deleting it leaves no process, no mount and no state behind; check mode
touches nothing. Also the SSH wait every provider uses, against a real sshd."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from runner.connection import ConnectionSettings, HostSession
from runner.infra import LocalServer
from runner.models.validation import validate
from runner.module_index import ModuleIndex
from runner.providers import ProviderError, ensure_absent, ensure_present, make_provider
from runner.providers.local import LocalProvider
from runner.providers.waiting import ssh_answers, wait_for_ssh
from runner.testenv import TestEnv, unavailable_reason
from runner.testenv.machine import mount_points_under, start_time
from tests.support.playbook_run import run_playbook

UNAVAILABLE = unavailable_reason()
pytestmark = [pytest.mark.hosts,
              pytest.mark.skipif(UNAVAILABLE is not None, reason=f"no local test hosts: {UNAVAILABLE}")]

BASE_ADDRESS = 180  # clear of the session env (.20) and a developer's default env (.2)


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def provider(state_dir: Path) -> LocalProvider:
    return make_provider("local", {"state_dir": str(state_dir), "base_address": BASE_ADDRESS, "poll_interval": 0.05},
                         env_name="providertest")  # type: ignore[return-value]


def local_server(name: str, **settings: object) -> LocalServer:
    return validate(LocalServer, {"hostname": name, "provider": "local", **settings})


def mount_namespace(pid: int) -> str:
    return os.readlink(f"/proc/{pid}/ns/mnt")


def processes_in(namespace: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.readlink(entry / "ns" / "mnt") == namespace:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def remote_hostname(variables: dict) -> str:
    async def ask() -> str:
        session = HostSession(ConnectionSettings.from_host_vars("server", variables), ModuleIndex())
        try:
            result = await session.raw("hostname", timeout=30)
        finally:
            await session.close()
        return result.stdout.decode().strip()

    return asyncio.run(ask())


def test_check_mode_touches_nothing(provider: LocalProvider, state_dir: Path) -> None:
    outcome = ensure_present(provider, local_server("l-check"), check=True)
    assert (outcome.changed, outcome.msg) == (True, "would create local server 'l-check'")
    assert not state_dir.exists()
    assert ensure_absent(provider, "l-check", check=True).changed is False


def test_create_is_idempotent_and_delete_leaves_nothing_behind(provider: LocalProvider, state_dir: Path) -> None:
    server = local_server("l-one", labels=["web"])
    outcome = ensure_present(provider, server)
    state = outcome.state
    assert (outcome.changed, outcome.msg) == (True, "created local server 'l-one'")
    assert state is not None and state.running and state.private_address == f"127.0.0.{BASE_ADDRESS}"
    assert ssh_answers(state.private_address)
    variables = provider.login_vars(server, state)
    assert remote_hostname(variables) == "l-one"

    again = ensure_present(provider, server)
    assert (again.changed, again.msg) == (False, "local server 'l-one' exists (running)")
    assert again.state is not None and again.state.details["pid"] == state.details["pid"]

    init = state.details["pid"]
    namespace = mount_namespace(init)
    gone = ensure_absent(provider, "l-one")
    assert (gone.changed, gone.msg) == (True, "deleted local server 'l-one'")
    assert start_time(init) is None
    assert processes_in(namespace) == []
    assert mount_points_under(state_dir) == []
    assert not (state_dir / "providertest" / "l-one").exists()
    assert ensure_absent(provider, "l-one").changed is False


def test_a_server_deleted_with_its_storage_kept_is_stopped_and_starts_again(provider: LocalProvider,
                                                                            state_dir: Path) -> None:
    server = local_server("l-kept")
    ensure_present(provider, server)
    ensure_absent(provider, "l-kept", keep_storage=True)
    stopped = provider.find("l-kept")
    assert stopped is not None and (stopped.state, stopped.running) == ("stopped", False)
    assert ensure_present(provider, server, check=True).msg == "would start local server 'l-kept' (now stopped)"
    started = ensure_present(provider, server)
    assert (started.changed, started.msg) == (True, "started local server 'l-kept'")
    assert started.state is not None and ssh_answers(started.state.private_address or "")
    ensure_absent(provider, "l-kept")
    assert provider.servers() == [] and mount_points_under(state_dir) == []


def test_a_playbook_creates_a_server_works_on_it_and_deletes_it(state_dir: Path, tmp_path: Path) -> None:
    settings = f"{{state_dir: {state_dir}, base_address: {BASE_ADDRESS + 10}}}"
    playbook = tmp_path / "local.yml"
    playbook.write_text(f"""\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: make it
      server: {{name: l-play, provider: local, infra: playtest, labels: [fresh], provider_config: {settings}}}
- hosts: fresh
  gather_facts: false
  tasks:
    - name: its name
      command: hostname
- hosts: localhost
  gather_facts: false
  tasks:
    - name: remove it
      server: {{name: l-play, provider: local, infra: playtest, state: absent, provider_config: {settings}}}
""")
    run = run_playbook("localhost,", playbook)
    assert run.exit_code == 0, run.output
    assert run.task("make it")["localhost"]["changed"] is True
    assert run.task("its name")["l-play"]["stdout"] == "l-play"
    assert run.task("remove it")["localhost"]["msg"] == "deleted local server 'l-play'"
    pid = run.task("make it")["localhost"]["server"]["pid"]
    assert start_time(pid) is None and mount_points_under(state_dir) == []


def test_the_ssh_wait_returns_once_sshd_answers_and_fails_on_a_silent_port(testenv: TestEnv) -> None:
    host = testenv.hosts()[0]
    wait_for_ssh(host.address, 22, timeout=30, interval=0.05)
    with pytest.raises(ProviderError, match=rf"SSH at {host.address}:2 did not answer within"):
        wait_for_ssh(host.address, 2, timeout=0.2, interval=0.05)
