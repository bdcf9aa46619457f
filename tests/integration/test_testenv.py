"""Local test hosts: what a run on them can rely on, and that tearing them down leaves nothing behind."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import secrets
import signal
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from runner.cli.testenv import cli
from runner.connection import ConnectionSettings, HostSession
from runner.connection.transport import CommandResult
from runner.module_index import ModuleIndex
from runner.testenv import SUDOPW_PASSWORD, TestEnv, TestEnvError, is_default_inventory, unavailable_reason
from runner.testenv.host import TestHost
from runner.testenv.machine import mount_points_under, start_time
from runner.testenv.users import AccountFiles, with_test_users

REPO = Path(__file__).resolve().parents[2]


# --- helpers -------------------------------------------------------------------------------------------------

def inventory_host_vars(inventory: Path) -> dict[str, dict]:
    """Each host's variables as the inventory gives them (group vars under host vars)."""
    group = YAML(typ="safe").load(inventory.read_text())["all"]["children"]["testhosts"]
    return {name: {**group["vars"], **(own or {})} for name, own in group["hosts"].items()}


def settings_for(env: TestEnv, name: str, **overrides: object) -> ConnectionSettings:
    settings = ConnectionSettings.from_host_vars(name, inventory_host_vars(env.inventory_path)[name])
    return replace(settings, **overrides)


async def _raw(settings: ConnectionSettings, command: str) -> CommandResult:
    session = HostSession(settings, ModuleIndex())
    try:
        return await session.raw(command, timeout=30)
    finally:
        await session.close()


def run(env: TestEnv, name: str, command: str, **overrides: object) -> CommandResult:
    return asyncio.run(_raw(settings_for(env, name, **overrides), command))


def out(env: TestEnv, name: str, command: str, **overrides: object) -> str:
    result = run(env, name, command, **overrides)
    assert result.rc == 0, result.stderr.decode()
    return result.stdout.decode().strip()


def processes_with_argv(argv: list[str]) -> list[int]:
    """Pids on the machine whose command line is exactly ``argv``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().split(b"\0")[:-1]
            except OSError:
                continue
            if [part.decode(errors="replace") for part in cmdline] == argv:
                found.append(int(entry.name))
    return found


def wait_for_processes(argv: list[str], timeout: float = 10.0) -> list[int]:
    """``processes_with_argv`` once the command has started: a detached `setsid nohup` execs it a moment later."""
    deadline = time.monotonic() + timeout
    while not (found := processes_with_argv(argv)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return found


# --- the session's hosts ---------------------------------------------------------------------------------------

@pytest.mark.hosts
def test_hosts_come_up_with_their_names_and_addresses(testenv: TestEnv) -> None:
    hosts = testenv.hosts()
    assert [(host.name, host.address) for host in hosts] == [
        ("host1", "127.0.0.20"), ("host2", "127.0.0.21"), ("host3", "127.0.0.22")]
    for host in hosts:
        assert out(testenv, host.name, "hostname; cat /etc/hostname").split() == [host.name, host.name]
        assert host.name in out(testenv, host.name, "getent hosts " + host.address)


@pytest.mark.hosts
def test_inventory_logs_in_as_root_with_the_env_key_and_checks_host_keys(testenv: TestEnv) -> None:
    host_vars = inventory_host_vars(testenv.inventory_path)
    assert set(host_vars) == {"host1", "host2", "host3"}
    assert host_vars["host1"]["ansible_host"] == "127.0.0.20"
    assert host_vars["host1"]["ansible_python_interpreter"] == "/usr/bin/python3"
    known = testenv.known_hosts.read_text().splitlines()
    assert [line.split()[0] for line in known] == ["127.0.0.20", "127.0.0.21", "127.0.0.22"]
    settings = settings_for(testenv, "host2")
    assert settings.host_key_checking and settings.known_hosts_file == str(testenv.known_hosts)
    assert out(testenv, "host2", "id -un") == "root"


@pytest.mark.hosts
def test_a_changed_host_key_is_refused(testenv: TestEnv, tmp_path: Path) -> None:
    wrong = tmp_path / "known_hosts"
    # host1's key listed for host2's address: host2 must not be trusted with it.
    host1_key = testenv.known_hosts.read_text().splitlines()[0].split(" ", 1)[1]
    wrong.write_text(f"127.0.0.21 {host1_key}\n")
    with pytest.raises(Exception, match="host key"):
        run(testenv, "host2", "true", known_hosts_file=str(wrong))


@pytest.mark.hosts
def test_the_agent_runs_on_the_host(testenv: TestEnv) -> None:
    async def fetch() -> bytes:
        session = HostSession(settings_for(testenv, "host3"), ModuleIndex())
        try:
            _, data = await session.fetch("/etc/hostname")
            return data
        finally:
            await session.close()

    assert asyncio.run(fetch()) == b"host3\n"


@pytest.mark.hosts
def test_deploy_has_passwordless_sudo_and_sudopw_needs_its_password(testenv: TestEnv) -> None:
    assert out(testenv, "host1", "id -un; sudo -n id -un", user="deploy").split() == ["deploy", "root"]
    assert out(testenv, "host1", "getent passwd deploy | cut -d: -f7", user="deploy") == "/bin/bash"
    assert run(testenv, "host1", "sudo -n true", user="sudopw").rc != 0
    with_password = f"echo {SUDOPW_PASSWORD} | sudo -S -p '' id -un"
    assert out(testenv, "host1", with_password, user="sudopw") == "root"
    assert run(testenv, "host1", "echo wrong | sudo -S -p '' true", user="sudopw").rc != 0


@pytest.mark.hosts
def test_password_login_works_for_sudopw(testenv: TestEnv) -> None:
    result = run(testenv, "host2", "id -un", user="sudopw", private_key_file=None,
                 password=SUDOPW_PASSWORD)
    assert result.stdout.decode().strip() == "sudopw"


@pytest.mark.hosts
def test_tmp_and_run_are_private_and_run_starts_with_lock_and_sshd(testenv: TestEnv) -> None:
    token = secrets.token_hex(6)
    for directory in ("/tmp", "/run"):
        marker = f"{directory}/testenv-{token}"
        out(testenv, "host1", f"echo here > {marker}")
        assert not Path(marker).exists()
        assert run(testenv, "host2", f"test -e {marker}").rc == 1
        assert out(testenv, "host1", f"cat {marker}") == "here"
    assert out(testenv, "host3", "stat -c '%a %n' /tmp /run/lock /run/sshd").splitlines() == [
        "1777 /tmp", "1777 /run/lock", "755 /run/sshd"]
    assert out(testenv, "host3", "findmnt -n -o FSTYPE /tmp; findmnt -n -o FSTYPE /run").split() == ["tmpfs", "tmpfs"]
    # The machine's /run is not the host's: something written there now is not visible on the host (comparing whole
    # listings would not do: a package installed on both creates the same directory in each).
    machine_marker = Path(f"/run/testenv-machine-{token}")
    machine_marker.write_text("machine")
    try:
        assert run(testenv, "host3", f"test -e {machine_marker}").rc == 1
    finally:
        machine_marker.unlink()


@pytest.mark.hosts
def test_a_file_written_in_one_hosts_root_stays_in_that_host(testenv: TestEnv) -> None:
    marker = f"/testenv-root-{secrets.token_hex(6)}"
    out(testenv, "host1", f"echo mine > {marker}")
    assert not Path(marker).exists()
    assert run(testenv, "host2", f"test -e {marker}").rc == 1
    host1 = testenv.hosts()[0]
    assert (host1.state_dir / "upper" / marker.lstrip("/")).read_text() == "mine\n"


@pytest.mark.hosts
def test_each_host_is_its_own_pid_space_with_its_own_proc_and_dev(testenv: TestEnv) -> None:
    assert "init.py" in out(testenv, "host1", "tr '\\0' ' ' < /proc/1/cmdline")
    assert out(testenv, "host1", "ls /dev/null /dev/urandom /dev/ptmx /dev/pts/ptmx | wc -l") == "4"
    assert out(testenv, "host1", "findmnt -n -o OPTIONS /sys").startswith("ro")
    assert out(testenv, "host1", "ls -A /var/lib/provisioning/testenv | wc -l") == "0"  # keys stay hidden


@pytest.mark.hosts
def test_policy_rc_d_holds_services_back(testenv: TestEnv) -> None:
    assert run(testenv, "host2", "/usr/sbin/policy-rc.d nginx start").rc == 101


@pytest.mark.hosts
def test_cli_lists_the_hosts_and_prints_the_inventory(testenv: TestEnv) -> None:
    listed = CliRunner().invoke(cli, ["list", "--name", "pytest"])
    assert listed.exit_code == 0
    assert [line.split("\t")[1:3] for line in listed.output.splitlines()] == [
        ["host1", "127.0.0.20"], ["host2", "127.0.0.21"], ["host3", "127.0.0.22"]]
    printed = CliRunner().invoke(cli, ["inventory", "--name", "pytest"])
    assert printed.exit_code == 0 and printed.output.strip() == str(testenv.inventory_path)


# --- a short-lived env of its own, to bring up and tear down ---------------------------------------------------

@pytest.fixture
def lifecycle_env() -> Iterator[TestEnv]:
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="pytest-lifecycle", count=2, base_address=40)
    try:
        yield env
    finally:
        env.down()


@pytest.mark.hosts
def test_up_twice_reuses_the_running_hosts(lifecycle_env: TestEnv) -> None:
    first = lifecycle_env.up()
    second = lifecycle_env.up()
    assert second == first
    assert out(lifecycle_env, "host2", "hostname") == "host2"


@pytest.mark.hosts
def test_up_restarts_a_host_whose_init_died(lifecycle_env: TestEnv) -> None:
    host1, host2 = lifecycle_env.up()
    os.kill(host1.pid, signal.SIGKILL)
    for _ in range(500):  # the kernel ends the host's processes; wait until its init is gone
        if start_time(host1.pid) is None:
            break
        time.sleep(0.02)
    restarted, unchanged = lifecycle_env.up()
    assert restarted.pid != host1.pid and unchanged == host2
    assert out(lifecycle_env, "host1", "hostname") == "host1"


@pytest.mark.hosts
def test_up_with_fewer_hosts_removes_the_extra_ones(lifecycle_env: TestEnv) -> None:
    lifecycle_env.up()
    smaller = TestEnv(name=lifecycle_env.name, count=1, base_address=40)
    assert [host.name for host in smaller.up()] == ["host1"]
    assert not (lifecycle_env.state_dir / "host2").exists()
    assert "host2" not in lifecycle_env.inventory_path.read_text()


@pytest.mark.hosts
def test_down_ends_daemons_a_run_started_and_leaves_no_mount(lifecycle_env: TestEnv) -> None:
    lifecycle_env.up()
    daemon = ["sleep", f"{4000 + secrets.randbelow(1000)}.{secrets.randbelow(100)}"]
    out(lifecycle_env, "host2", f"setsid nohup {' '.join(daemon)} >/dev/null 2>&1 < /dev/null &")
    assert wait_for_processes(daemon)
    state_dir = lifecycle_env.state_dir

    lifecycle_env.down()

    assert processes_with_argv(daemon) == []
    assert lifecycle_env.hosts() == []
    assert mount_points_under(state_dir) == []
    assert str(state_dir) not in Path("/proc/self/mountinfo").read_text()
    assert not state_dir.exists()
    lifecycle_env.down()  # again: nothing to do, no error


@pytest.mark.hosts
def test_down_keep_state_keeps_the_layers(lifecycle_env: TestEnv) -> None:
    lifecycle_env.up()
    out(lifecycle_env, "host1", "echo kept > /root/kept")
    lifecycle_env.down(keep_state=True)
    assert lifecycle_env.hosts() == []
    assert (lifecycle_env.state_dir / "host1" / "upper" / "root" / "kept").read_text() == "kept\n"
    assert mount_points_under(lifecycle_env.state_dir) == []


@pytest.mark.hosts
def test_an_address_in_use_is_a_clear_error(lifecycle_env: TestEnv, testenv: TestEnv) -> None:
    clashing = TestEnv(name=lifecycle_env.name, count=2, base_address=21)  # 127.0.0.21 is pytest's host2
    with pytest.raises(TestEnvError, match=r"127\.0\.0\.21:22 is already in use"):
        clashing.up()
    assert clashing.hosts() == []


# --- hosts that boot systemd, as a Debian machine or CI container does -----------------------------------------

@pytest.fixture
def systemd_env() -> Iterator[TestEnv]:
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="pytest-systemd", count=1, base_address=40, systemd=True)
    try:
        yield env
    finally:
        env.down()


@pytest.mark.hosts
def test_a_host_boots_systemd_and_its_services_take_drop_ins(systemd_env: TestEnv) -> None:
    (host,) = systemd_env.up()
    assert host.init == "systemd"
    assert out(systemd_env, "host1", "cat /proc/1/comm; systemctl is-system-running --wait; hostname").split() == [
        "systemd", "running", "host1"]
    assert out(systemd_env, "host1", "test -d /run/systemd/system && echo yes") == "yes"  # what facts look for
    assert out(systemd_env, "host1", "systemctl --failed --plain --no-legend | wc -l") == "0"
    # What setup_cron-like roles rely on: a drop-in's Environment reaches the restarted service.
    drop_in = "/etc/systemd/system/cron.service.d"
    out(systemd_env, "host1", f"mkdir -p {drop_in} && printf '[Service]\\nEnvironment=MARK=on\\n' > {drop_in}/m.conf"
                              " && systemctl daemon-reload && systemctl restart cron")
    pid = out(systemd_env, "host1", "systemctl show -p MainPID --value cron")
    assert "MARK=on" in out(systemd_env, "host1", f"tr '\\0' '\\n' < /proc/{pid}/environ")
    # Sessions keep the open-files limit the host was started with (systemd's default for a service is 1024).
    assert out(systemd_env, "host1", "ulimit -n") == str(resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    # The machine's own enabled services (its database, registry, ...) do not start in the host.
    assert out(systemd_env, "host1", "systemctl is-active postgresql docker-registry || true").split() == [
        "inactive", "inactive"]


def host_cgroup_of(host: TestHost) -> Path:
    return Path(json.loads((host.state_dir / "init.json").read_text())["cgroup"])


@pytest.mark.hosts
def test_a_systemd_host_stops_leaving_no_cgroup_and_up_switches_its_init(systemd_env: TestEnv) -> None:
    (host,) = systemd_env.up()
    cgroup = host_cgroup_of(host)
    assert (cgroup / "init.scope").is_dir()  # systemd manages the cgroups below the host's own
    plain = TestEnv(name=systemd_env.name, count=1, base_address=40)
    (restarted,) = plain.up()
    assert restarted.init == "plain" and restarted.pid != host.pid
    assert not cgroup.exists()
    assert out(plain, "host1", "cat /proc/1/comm") != "systemd"
    (again,) = systemd_env.up()
    assert again.init == "systemd"
    cgroup = host_cgroup_of(again)
    systemd_env.down()
    assert not cgroup.exists()
    assert systemd_env.hosts() == [] and mount_points_under(systemd_env.state_dir) == []


# --- no hosts needed -----------------------------------------------------------------------------------------

def test_without_root_the_cli_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    result = CliRunner().invoke(cli, ["up", "1", "--state-root", str(tmp_path)])
    assert result.exit_code == 1
    assert "need root" in result.output and "Traceback" not in result.output


def test_bad_env_settings_are_errors() -> None:
    with pytest.raises(TestEnvError, match="do not fit"):
        TestEnv(count=300)
    with pytest.raises(TestEnvError, match="letters, digits"):
        TestEnv(name="../escape")


def test_test_users_are_added_with_free_ids_and_existing_ones_kept() -> None:
    files = AccountFiles(
        passwd="root:x:0:0:root:/root:/bin/bash\nalice:x:1000:1000::/home/alice:/bin/sh\n"
               "deploy:x:1500:1500::/srv/deploy:/usr/sbin/nologin\n",
        shadow="root:*:19000:0:99999:7:::\n",
        group="root:x:0:\nalice:x:1000:\ndeploy:x:1500:\n",
        gshadow=None)
    updated, ids = with_test_users(files)
    assert ids == {"deploy": (1500, 1500), "sudopw": (1001, 1001)}
    passwd = updated.passwd.splitlines()
    assert "deploy:x:1500:1500:deploy (test user):/home/deploy:/bin/bash" in passwd
    assert "sudopw:x:1001:1001:sudopw (test user):/home/sudopw:/bin/bash" in passwd
    assert [line.split(":")[0] for line in updated.shadow.splitlines()] == ["root", "deploy", "sudopw"]
    assert "sudopw:x:1001:" in updated.group.splitlines()
    assert updated.gshadow is None


def test_inventories_local_is_the_default_inventory(tmp_path: Path) -> None:
    assert is_default_inventory(REPO / "inventories" / "local")
    assert is_default_inventory(REPO / "inventories" / "local" / "testenv.yml")
    plain = tmp_path / "hosts.yml"
    plain.write_text(json.dumps({"all": {"hosts": {"web1": None}}}))
    assert not is_default_inventory(plain)
    assert not is_default_inventory(tmp_path)
