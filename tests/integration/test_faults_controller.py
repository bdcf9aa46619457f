"""A controller killed (SIGKILL) or told to stop (SIGTERM, SIGHUP) in the middle of a run, on test hosts of this
module's own: nothing of the run may outlive it.

Checked from outside, by reading /proc (see tests/support/processes.py): on the machine, no process in the
controller's process group, none of its children, none with the run's marker in its command line (its workers
share the controller's); on each host, no agent and no process of the task; beside a copy's destination, no
partial or staged file, and the old content in place. Then the next run works.
"""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from runner.agent import BOOTSTRAP
from runner.testenv import TestEnv, unavailable_reason
from tests.support.processes import Process, host_root, pid_namespace, processes
from tests.support.scripts import script

pytestmark = pytest.mark.hosts

# A run's processes, here and on its hosts, must all be gone this many seconds after its controller ended.
SETTLE_SECONDS = 5.0
# Generous: the machine is shared, and a run has to connect and start its agents before it can be stopped.
START_TIMEOUT = 90.0
COPY_DIR = "/tmp/faults-ctl-copy"
BIG_SIZE = 256 << 20  # a few seconds on the wire: long enough to stop it half-way
OLD_CONTENT = "old content\n"


@pytest.fixture(scope="module")
def env() -> Iterator[TestEnv]:
    """Two hosts of this module's own (127.0.0.50-51), fresh, taken down at the end."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="faults-ctl", count=2, base_address=50)
    env.down()  # whatever an earlier, interrupted session left there
    env.up()
    try:
        yield env
    finally:
        env.down()


def new_marker() -> str:
    """A number of seconds no other test sleeps for: found in command lines here and on the hosts."""
    return str(4_000_000 + secrets.randbelow(1_000_000))


@dataclass
class Controller:
    """A command started in a session of its own (its process group is its pid, apart from the test's), its
    output in files: a pipe would stay open as long as any process of the run holds it."""

    process: subprocess.Popen[bytes]
    output: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def stderr(self) -> str:
        return self.output.with_suffix(".err").read_text()


def start(tmp_path: Path, *command: str) -> Controller:
    output = tmp_path / f"controller-{secrets.token_hex(4)}.out"
    with output.open("wb") as stdout, output.with_suffix(".err").open("wb") as stderr:
        process = subprocess.Popen(list(command), stdin=subprocess.DEVNULL, stdout=stdout, stderr=stderr,
                                   start_new_session=True)
    return Controller(process, output)


def playbook(tmp_path: Path, env: TestEnv, marker: str, tasks: str) -> tuple[str, ...]:
    path = tmp_path / f"run-{marker}.yml"  # the marker in the controller's (and its workers') command line
    path.write_text(f"- hosts: testhosts\n  gather_facts: false\n  tasks:\n{tasks}")
    return script("provisioning-playbook"), str(path), "-i", str(env.inventory_path)


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(0.05)


def on_hosts(env: TestEnv) -> dict[str, str]:
    """PID namespace -> host name."""
    return {pid_namespace(host.pid): host.name for host in env.hosts()}


def running_on_every_host(env: TestEnv, text: str) -> bool:
    namespaces = on_hosts(env)
    seen = {namespaces[p.pid_namespace] for p in processes()
            if p.running and p.pid_namespace in namespaces and text in p.command}
    return len(seen) == len(namespaces)


def leftovers(env: TestEnv, controller: int, marker: str) -> dict[Process, str]:
    """What of the run still runs, and where: on the machine, a process of the controller's group, one of its
    children, or one with the marker; on a host, an agent or a process with the marker (nothing else uses these
    hosts)."""
    namespaces = on_hosts(env)
    found: dict[Process, str] = {}
    for process in processes():
        if not process.running:
            continue
        if process.pid_namespace in namespaces:
            if BOOTSTRAP in process.command or marker in process.command:
                found[process] = namespaces[process.pid_namespace]
        elif controller in (process.pgid, process.ppid) or marker in process.command:
            found[process] = "controller"
    return found


def workers_of(controller: int) -> list[Process]:
    return [p for p in processes() if p.ppid == controller and p.running]


def stop_and_check(env: TestEnv, controller: Controller, signum: int, marker: str) -> int:
    """Send ``signum`` to the controller alone (not its group: the workers must learn it from the controller),
    wait for its end, and check that nothing of the run is left; returns its exit code."""
    assert workers_of(controller.pid), "the run has no workers to leave behind: the check would prove nothing"
    os.kill(controller.pid, signum)
    code = controller.process.wait(timeout=60)
    deadline = time.monotonic() + SETTLE_SECONDS
    while (remaining := leftovers(env, controller.pid, marker)) and time.monotonic() < deadline:
        time.sleep(0.1)
    for process, where in remaining.items():
        if where == "controller":
            os.kill(process.pid, signal.SIGKILL)  # not to leave a failed test's orphans running on the machine
    assert not remaining, f"left running {SETTLE_SECONDS:.0f}s after the controller ended:\n" + "\n".join(
        f"{where}: {process.pid} {process.command[:160]}" for process, where in remaining.items())
    return code


@pytest.mark.parametrize("become", ["", "      become: true\n      become_user: deploy\n"], ids=["root", "sudo"])
def test_sigkill_during_a_long_command_leaves_nothing_running(env: TestEnv, tmp_path: Path, become: str) -> None:
    marker = new_marker()
    controller = start(tmp_path, *playbook(tmp_path, env, marker, f"    - shell: sleep {marker}\n{become}"))
    wait_until(lambda: running_on_every_host(env, f"sleep {marker}"), START_TIMEOUT, "the command on every host")
    assert stop_and_check(env, controller, signal.SIGKILL, marker) == -signal.SIGKILL

    after = subprocess.run(playbook(tmp_path, env, new_marker(), "    - command: echo again\n"),
                           capture_output=True, text=True, timeout=120)
    assert after.returncode == 0, after.stdout + after.stderr
    assert "ok=1    changed=1" in after.stdout


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("copy") / "big.bin"
    with path.open("wb") as handle:
        for _ in range(BIG_SIZE >> 20):
            handle.write(os.urandom(1 << 20))  # random: nothing on the way can compress it
    return path


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGTERM, 143)],
                         ids=["SIGKILL", "SIGTERM"])
def test_stopped_during_a_copy_keeps_the_old_file_and_no_partial_one(env: TestEnv, tmp_path: Path, big: Path,
                                                                       signum: int, code: int) -> None:
    prepared = subprocess.run(playbook(tmp_path, env, new_marker(), f"""\
    - file: path={COPY_DIR} state=directory
    - copy: content={OLD_CONTENT!r} dest={COPY_DIR}/big.bin
"""), capture_output=True, text=True, timeout=120)
    assert prepared.returncode == 0, prepared.stdout + prepared.stderr
    directories = [host_root(host.pid) / COPY_DIR.lstrip("/") for host in env.hosts()]

    def streaming_everywhere() -> bool:  # the agent's partial upload beside the destination, well under way
        return all(any(entry.name.startswith(".provisioning.") and entry.stat().st_size > (16 << 20)
                       for entry in directory.iterdir()) for directory in directories)

    marker = new_marker()
    controller = start(tmp_path, *playbook(tmp_path, env, marker, f"    - copy: src={big} dest={COPY_DIR}/big.bin\n"))
    wait_until(lambda: _quietly(streaming_everywhere), START_TIMEOUT, "the copy half-way on every host")
    assert stop_and_check(env, controller, signum, marker) == code, controller.stderr()
    for directory in directories:
        assert sorted(entry.name for entry in directory.iterdir()) == ["big.bin"]  # no partial, no staged file
        assert (directory / "big.bin").read_text() == OLD_CONTENT

    after = subprocess.run(playbook(tmp_path, env, new_marker(), f"    - copy: src={big} dest={COPY_DIR}/big.bin\n"),
                           capture_output=True, text=True, timeout=300)
    assert after.returncode == 0, after.stdout + after.stderr
    for directory in directories:
        assert sorted(entry.name for entry in directory.iterdir()) == ["big.bin"]
        assert (directory / "big.bin").stat().st_size == BIG_SIZE


def _quietly(condition: Callable[[], bool]) -> bool:
    """``condition()``, False while a file it looks at comes and goes (a partial upload renamed meanwhile)."""
    try:
        return condition()
    except FileNotFoundError:
        return False


@pytest.mark.parametrize(("command", "signum", "code"), [
    ("provisioning-playbook", signal.SIGTERM, 143),
    ("provisioning-playbook", signal.SIGHUP, 129),
    ("provisioning", signal.SIGTERM, 143),
], ids=["playbook-SIGTERM", "playbook-SIGHUP", "adhoc-SIGTERM"])
def test_sigterm_and_sighup_stop_the_run_cleanly(env: TestEnv, tmp_path: Path, command: str, signum: signal.Signals,
                                                 code: int) -> None:
    marker = new_marker()
    if command == "provisioning":
        args: tuple[str, ...] = (script("provisioning"), "testhosts", "-i", str(env.inventory_path), "-m", "shell",
                                 "-a", f"sleep {marker}")
    else:
        args = playbook(tmp_path, env, marker, f"    - shell: sleep {marker}\n")
    controller = start(tmp_path, *args)
    wait_until(lambda: running_on_every_host(env, f"sleep {marker}"), START_TIMEOUT, "the command on every host")
    assert stop_and_check(env, controller, signum, marker) == code, controller.stderr()
    assert f"Terminated by {signum.name}" in controller.stderr() and "Traceback" not in controller.stderr()
