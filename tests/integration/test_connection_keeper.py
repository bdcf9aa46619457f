"""The connection keeper on test hosts of this module's own (env "keeper", 127.0.0.30-31): a second run reuses the
first run's connections and agents (the hosts' sshd logs one login), a changed setting, user or key file gets a
new connection, become passwords are checked as on a fresh connection (a wrong one fails, the right one's agent
is lent again), a killed keeper or a restarted host is recovered without error, an unsafe socket directory is refused,
and idle expiry ends the keeper and its agents on the hosts."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.testenv import SUDOPW_PASSWORD, TestEnv, unavailable_reason
from tests.integration.host_faults import AGENT_COMMAND, host_processes
from tests.plugin.keeper import keepers_under
from tests.support.scripts import script

pytestmark = pytest.mark.hosts

HOSTS = ("kp1", "kp2")
RUN_TIMEOUT = 180  # far above what any run here takes: reaching it means a hang
PLAYBOOK = textwrap.dedent("""\
    - hosts: testhosts
      gather_facts: false
      tasks:
        - ping:
        - command: echo hello
          changed_when: false
        - copy: {content: "kept\\n", dest: "/tmp/keeper-test-{{ ansible_user }}"}
        - raw: echo raw
          changed_when: false
    """)


@pytest.fixture(scope="module")
def env() -> Iterator[TestEnv]:
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="keeper", count=len(HOSTS), base_address=30, prefix="kp")
    env.up()
    try:
        yield env
    finally:
        env.down()


@pytest.fixture
def playbook(tmp_path: Path) -> Path:
    path = tmp_path / "site.yml"
    path.write_text(PLAYBOOK)
    return path


def _run(env: TestEnv, runtime: Path, argv: list[str], persist: str = "60") -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "PROVISIONING_PERSIST": persist}
    result = subprocess.run([*argv, "-i", str(env.inventory_path)], capture_output=True, text=True,
                            env=environment, timeout=RUN_TIMEOUT)
    assert "Traceback" not in result.stderr and "internal error" not in result.stdout, result.stderr
    return result


def _playbook(env: TestEnv, runtime: Path, playbook: Path, *args: str, persist: str = "60") -> str:
    result = _run(env, runtime, [script("provisioning-playbook"), str(playbook), *args], persist)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stderr


def _logins(env: TestEnv) -> dict[str, int]:
    """SSH logins each host's sshd has logged."""
    return {name: (env.state_dir / name / "init.log").read_text(errors="replace").count("Accepted publickey")
            for name in HOSTS}


def _agents(env: TestEnv) -> dict[str, set[int]]:
    return {name: {pid for pid, command in host_processes(env, name).items() if command.startswith(AGENT_COMMAND)}
            for name in HOSTS}


def _sessions(env: TestEnv) -> dict[str, int]:
    """sshd session processes (not the listener) on each host: one per open connection."""
    return {name: sum(1 for command in host_processes(env, name).values()
                      if command.startswith(("sshd: ", "sshd-session: ")) and "/usr/sbin/sshd" not in command)
            for name in HOSTS}


def _wait_until(condition: object, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.2)


def _wait_for_agents_to_end(env: TestEnv, pids: dict[str, set[int]]) -> None:
    _wait_until(lambda: not any(pids[name] & agents for name, agents in _agents(env).items()),
                f"agents {pids} ended")


def test_second_run_reuses_the_connection_and_its_agent(env: TestEnv, keeper_runtime: Path, playbook: Path) -> None:
    _playbook(env, keeper_runtime, playbook)
    logins, agents = _logins(env), _agents(env)
    assert all(agents.values()), "the first run's agents are kept after it ended"
    second = _run(env, keeper_runtime, [script("provisioning-playbook"), str(playbook), "-vvv"])
    assert second.returncode == 0, second.stdout + second.stderr
    # A kept connection is still named at -vvv as Ansible names a persistent one, on stdout; the keeper is ours
    assert second.stdout.count(" ESTABLISH SSH CONNECTION FOR USER: ") == len(HOSTS), second.stdout
    assert second.stderr.count(" KEEPER: reusing a kept connection") == len(HOSTS), second.stderr
    adhoc = _run(env, keeper_runtime, [script("provisioning"), "testhosts", "-m", "ping"])
    assert adhoc.returncode == 0, adhoc.stdout + adhoc.stderr
    assert _logins(env) == logins, "a later run logged in again"
    assert _agents(env) == agents, "a later run started new agents"
    assert _sessions(env) == {name: 1 for name in HOSTS}
    assert len(keepers_under(str(keeper_runtime))) == 1


def test_changed_settings_or_key_file_get_a_new_connection(env: TestEnv, keeper_runtime: Path, playbook: Path,
                                                           tmp_path: Path) -> None:
    _playbook(env, keeper_runtime, playbook)
    logins = _logins(env)
    _playbook(env, keeper_runtime, playbook, "-e", "ansible_port=22")  # the same place, another setting
    assert _logins(env) == {name: count + 1 for name, count in logins.items()}
    key = tmp_path / "id_ed25519"
    shutil.copy(env.private_key, key)
    key.chmod(0o600)
    _playbook(env, keeper_runtime, playbook, "-e", f"ansible_ssh_private_key_file={key}")
    assert _logins(env) == {name: count + 2 for name, count in logins.items()}
    _playbook(env, keeper_runtime, playbook, "-e", f"ansible_ssh_private_key_file={key}")
    assert _logins(env) == {name: count + 2 for name, count in logins.items()}, "the same key file is reused"
    key.write_bytes(env.private_key.read_bytes())  # the same key, written again: the file changed
    os.utime(key, (time.time() + 5, time.time() + 5))
    _playbook(env, keeper_runtime, playbook, "-e", f"ansible_ssh_private_key_file={key}")
    assert _logins(env) == {name: count + 3 for name, count in logins.items()}
    agents = _agents(env)
    _playbook(env, keeper_runtime, playbook, "-b", "--become-method", "su")
    assert _logins(env) == {name: count + 3 for name, count in logins.items()}, "become is the agent's, not the login's"
    assert all(len(now - agents[name]) == 1 for name, now in _agents(env).items()), "becoming gets a new agent"


def test_another_user_gets_a_new_connection(env: TestEnv, keeper_runtime: Path, playbook: Path) -> None:
    _playbook(env, keeper_runtime, playbook)
    logins = _logins(env)
    for _ in range(2):
        _playbook(env, keeper_runtime, playbook, "-e", "ansible_user=deploy")
        assert _logins(env) == {name: count + 1 for name, count in logins.items()}


def test_become_passwords_are_checked_as_on_a_fresh_connection(env: TestEnv, keeper_runtime: Path) -> None:
    def adhoc(*args: str) -> subprocess.CompletedProcess[str]:
        return _run(env, keeper_runtime, [script("provisioning"), "kp1", "-e", "ansible_user=sudopw", *args])

    right = ("-b", "-e", f"ansible_become_password={SUDOPW_PASSWORD}")
    assert adhoc("-m", "raw", "-a", "sudo -K").returncode == 0  # sudo forgets a recent password: it must ask
    first = adhoc("-a", "id -un", *right)
    assert first.returncode == 0 and first.stdout.endswith("root\n"), first.stdout + first.stderr
    agents = _agents(env)["kp1"]
    wrong = adhoc("-a", "id -un", "-b", "-e", "ansible_become_password=nope")
    assert wrong.returncode == 2 and "Incorrect sudo password" in wrong.stdout, wrong.stdout
    missing = adhoc("-a", "id -un", "-b")
    assert missing.returncode == 2 and "Missing sudo password" in missing.stdout, missing.stdout
    again = adhoc("-a", "id -un", *right)
    assert again.returncode == 0 and again.stdout.endswith("root\n"), again.stdout + again.stderr
    assert agents <= _agents(env)["kp1"], "the agent started with the right password is kept and lent again"


def test_a_killed_keeper_is_replaced(env: TestEnv, keeper_runtime: Path, playbook: Path) -> None:
    _playbook(env, keeper_runtime, playbook)
    logins, agents = _logins(env), _agents(env)
    (keeper,) = keepers_under(str(keeper_runtime))
    os.kill(keeper, signal.SIGKILL)
    _wait_for_agents_to_end(env, agents)  # its connections went with it, and their agents
    _playbook(env, keeper_runtime, playbook)
    assert _logins(env) == {name: count + 1 for name, count in logins.items()}
    assert list(keepers_under(str(keeper_runtime))) != [keeper]


def test_a_restarted_host_is_reconnected(env: TestEnv, keeper_runtime: Path, playbook: Path) -> None:
    _playbook(env, keeper_runtime, playbook)
    address = next(host.address for host in env.hosts() if host.name == "kp2")
    env.stop_host("kp2", keep_state=True)
    env.start_host("kp2", address)
    output = _playbook(env, keeper_runtime, playbook)
    assert "UNREACHABLE" not in output


@pytest.mark.parametrize("fault", ["mode", "owner"])
def test_an_unsafe_socket_directory_is_refused(env: TestEnv, keeper_runtime: Path, playbook: Path,
                                               fault: str) -> None:
    directory = keeper_runtime / "provisioning"
    directory.mkdir(mode=0o700)
    if fault == "mode":
        directory.chmod(0o755)
        reason = "its mode is 0755; it must be 0700"
    else:
        os.chown(directory, 65534, 65534)
        reason = "it is owned by uid 65534"
    output = _playbook(env, keeper_runtime, playbook)
    assert f"[WARNING]: refusing the keeper directory {directory}: {reason}" in output
    assert "connecting directly" in output
    assert not keepers_under(str(keeper_runtime)) and not list(directory.glob("keeper-*.sock"))


def test_idle_expiry_ends_the_keeper_and_its_agents(env: TestEnv, keeper_runtime: Path, playbook: Path) -> None:
    _playbook(env, keeper_runtime, playbook, persist="2")
    agents = _agents(env)
    assert all(agents.values()) and keepers_under(str(keeper_runtime))
    _wait_until(lambda: not keepers_under(str(keeper_runtime)), "the keeper ended")
    _wait_for_agents_to_end(env, agents)
    _wait_until(lambda: not any(_sessions(env).values()), "the hosts' sshd sessions ended")
    assert not list((keeper_runtime / "provisioning").glob("keeper-*.sock"))
