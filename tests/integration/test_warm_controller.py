"""The warm controller with real processes: a run after a cold one is served by it (its run counter goes up and it is
the same process), a cold run's output ends with the run although the controller forked from it lives on, persist 0
in the configuration leaves no controller, two cold runs at once leave one, the outcome of a run is the same served
warm as cold (exit code, stdout and stderr, for a success, a failed task, an unreachable host and a syntax error;
verbose lines on the same streams), Ctrl-C to the client ends the run with 99 and leaves nothing of it running, a
changed source file makes the next run start cold and a fresh controller, an unsafe socket directory is refused,
another user is turned away, and idle expiry ends it."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from runner.warm import client as warm_client
from runner.warm.control import warm_status
from runner.warm.place import socket_path
from tests.plugin.keeper import WARM_MODULE, keepers_under
from tests.support.processes import processes, processes_with
from tests.support.scripts import script

RUN_TIMEOUT = 120  # far above what any run here takes: reaching it means a hang
PLAYS = {
    "success": """\
        - hosts: all
          gather_facts: false
          tasks:
            - command: echo served
              changed_when: false
            - debug: {msg: "in {{ playbook_dir | basename }}"}
        """,
    "failure": """\
        - hosts: all
          gather_facts: false
          tasks:
            - command: /bin/false
        """,
    "syntax": """\
        - hosts: all
          tasks:
            - command: echo
              bogus_keyword: 1
        """,
}
INVENTORY = "local ansible_connection=local ansible_python_interpreter={python}\n" \
            "[gone]\nnowhere ansible_host=127.0.0.1 ansible_port=1 ansible_user=root\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for name, play in PLAYS.items():
        (tmp_path / f"{name}.yml").write_text(textwrap.dedent(play))
    (tmp_path / "hosts").write_text(INVENTORY.format(python=sys.executable))
    return tmp_path


def _environment(runtime: Path, persist: str = "60") -> dict[str, str]:
    return {**os.environ, "XDG_RUNTIME_DIR": str(runtime), "PROVISIONING_PERSIST": persist,
            "ANSIBLE_NOCOLOR": "1"}


def _run(runtime: Path, project: Path, *args: str, persist: str = "60",
         command: str = "provisioning-playbook") -> subprocess.CompletedProcess[str]:
    result = subprocess.run([script(command), *args, "-i", "hosts"], cwd=project, capture_output=True, text=True,
                            env=_environment(runtime, persist), timeout=RUN_TIMEOUT)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _status(runtime: Path) -> dict[str, Any] | None:
    return warm_status(runtime / "provisioning")


def _wait_until(condition: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting until {what}"
        time.sleep(0.1)


def _warm(runtime: Path, project: Path) -> dict[str, Any]:
    """A cold run, then its warm controller answering; what it says of itself."""
    assert _run(runtime, project, "success.yml", "-l", "local").returncode == 0
    _wait_until(lambda: _status(runtime) is not None, "the warm controller answers")
    status = _status(runtime)
    assert status is not None
    return status


def _served(runtime: Path) -> int:
    status = _status(runtime)
    return -1 if status is None else int(status["served"])


def test_a_second_run_is_served_by_the_warm_controller(keeper_runtime: Path, project: Path) -> None:
    first = _warm(keeper_runtime, project)
    assert first["served"] == 0
    result = _run(keeper_runtime, project, "success.yml", "-l", "local")
    assert result.returncode == 0 and "served" in result.stdout, result.stdout + result.stderr
    adhoc = _run(keeper_runtime, project, "local", "-m", "ping", command="provisioning")
    assert adhoc.returncode == 0 and "pong" in adhoc.stdout, adhoc.stdout + adhoc.stderr
    after = _status(keeper_runtime)
    assert after is not None and after["pid"] == first["pid"] and after["served"] == 2
    assert list(keepers_under(str(keeper_runtime), (WARM_MODULE,))) == [first["pid"]]
    for shown in ([script("provisioning-config"), "persist-status"],
                  [script("provisioning-testenv"), "status", "--name", "no-such-env"]):
        status = subprocess.run(shown, capture_output=True, text=True, env=_environment(keeper_runtime),
                                timeout=RUN_TIMEOUT)
        assert f"warm controller pid {first['pid']} " in status.stdout and "2 run(s) served" in status.stdout, \
            status.stdout + status.stderr
    stopped = subprocess.run([script("provisioning-config"), "persist-stop"], capture_output=True, text=True,
                             env=_environment(keeper_runtime), timeout=RUN_TIMEOUT)
    assert "warm controller stopped" in stopped.stdout, stopped.stdout + stopped.stderr
    assert _status(keeper_runtime) is None and not keepers_under(str(keeper_runtime), (WARM_MODULE,))


@pytest.mark.parametrize(("playbook", "limit", "code"), [
    ("success.yml", "local", 0), ("failure.yml", "local", 2), ("success.yml", "gone", 4), ("syntax.yml", "all", 4),
])
def test_a_run_served_warm_ends_as_the_same_run_cold(keeper_runtime: Path, project: Path, playbook: str,
                                                   limit: str, code: int) -> None:
    _warm(keeper_runtime, project)
    served = _served(keeper_runtime)
    warm = _run(keeper_runtime, project, playbook, "-l", limit)
    assert _served(keeper_runtime) == served + 1, "the run was not served warm"
    cold = _run(keeper_runtime, project, playbook, "-l", limit, persist="0")
    assert _served(keeper_runtime) == served + 1, "a run with persist 0 was served warm"
    assert (warm.returncode, _timeless(warm.stdout), warm.stderr) == (cold.returncode, _timeless(cold.stdout),
                                                                       cold.stderr)
    assert warm.returncode == code, warm.stdout + warm.stderr


def test_verbose_lines_go_to_the_same_streams_served_warm_as_cold(keeper_runtime: Path, project: Path) -> None:
    """Ansible's -vvv lines on the client's stdout, ours on its stderr: a served run writes to the client's own
    descriptors, as a cold run does."""
    _warm(keeper_runtime, project)
    served = _served(keeper_runtime)
    warm = _run(keeper_runtime, project, "success.yml", "-l", "local", "-vvv")
    assert _served(keeper_runtime) == served + 1, "the run was not served warm"
    cold = _run(keeper_runtime, project, "success.yml", "-l", "local", "-vvv", persist="0")
    for run in (warm, cold):
        assert run.returncode == 0, run.stdout + run.stderr
        assert re.search(r"^<\S+> ESTABLISH LOCAL CONNECTION FOR USER: \S+$", run.stdout, re.MULTILINE), run.stdout
        assert re.search(r"^Using module file \S+/command\.py$", run.stdout, re.MULTILINE), run.stdout
        assert "ESTABLISH" not in run.stderr and "PLAN CACHE" not in run.stdout
    assert _timeless(warm.stdout) == _timeless(cold.stdout)


def test_a_terminal_stays_a_terminal(keeper_runtime: Path, project: Path) -> None:
    """Colors on a terminal, and a password prompt read from it with echo off, served warm as cold."""
    _warm(keeper_runtime, project)
    served = _served(keeper_runtime)
    warm = _on_terminal(keeper_runtime, project, "60")
    assert _served(keeper_runtime) == served + 1, "the run was not served warm"
    cold = _on_terminal(keeper_runtime, project, "0")
    assert warm == cold
    assert warm.startswith(b"Vault password: \r\n") and b"secret" not in warm and b"\x1b[32mok: [local]" in warm


def _on_terminal(runtime: Path, project: Path, persist: str) -> bytes:
    """The run's output on a pseudo-terminal (its stdin, stdout and stderr), a password typed at the prompt."""
    primary, secondary = os.openpty()
    environment = {**_environment(runtime, persist), "TERM": "xterm"}
    environment.pop("ANSIBLE_NOCOLOR")
    client = subprocess.Popen([script("provisioning-playbook"), "success.yml", "-l", "local", "-i", "hosts",
                               "--ask-vault-pass"], cwd=project, stdin=secondary, stdout=secondary,
                              stderr=secondary, env=environment, start_new_session=True)
    os.close(secondary)
    output = b""
    try:
        while True:
            try:
                data = os.read(primary, 4096)
            except OSError:  # EIO: the terminal's last user closed it
                break
            if not data:
                break
            if b"password: " in data or (b"password: " in output + data and not output.count(b"password: ")):
                os.write(primary, b"secret\n")
            output += data
    finally:
        os.close(primary)
        assert client.wait(timeout=RUN_TIMEOUT) == 0, output
    return _timeless(output.decode(errors="replace")).encode()


def _timeless(output: str) -> str:
    """The output without the times a command's result reports (when it started and ended, how long it took),
    nor the name of an agent's temporary directory (its time, pid and random part, in -vvv's EXEC line)."""
    output = re.sub(r"ansible-tmp-[0-9.]+-[0-9]+-[0-9]+", "ansible-tmp-...", output)
    return re.sub(r'"(delta|start|end)": "[^"]*"', r'"\1": "..."', output)


def test_ctrl_c_to_the_client_ends_the_run_with_99(keeper_runtime: Path, project: Path) -> None:
    marker = f"{os.getpid()}.{time.monotonic_ns()}"
    (project / "long.yml").write_text(textwrap.dedent(f"""\
        - hosts: local
          gather_facts: false
          tasks:
            - command: sleep 300 {marker}
        """))
    _warm(keeper_runtime, project)
    client = subprocess.Popen([script("provisioning-playbook"), "long.yml", "-i", "hosts"], cwd=project,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_environment(keeper_runtime))
    try:
        _wait_until(lambda: processes_with(marker), "the task runs")
        status = _status(keeper_runtime)
        assert status is not None and status["running"] == 1, "the run is not served warm"
        client.send_signal(signal.SIGINT)
        stdout, stderr = client.communicate(timeout=RUN_TIMEOUT)
    finally:
        client.kill()
    assert client.returncode == 99, stdout + stderr
    assert "User interrupted execution" in stderr
    _wait_until(lambda: not processes_with(marker), "the task's process ended", timeout=30)
    _wait_until(lambda: (_status(keeper_runtime) or {}).get("running") == 0, "the warm run ended", timeout=30)


def test_a_changed_source_file_starts_a_fresh_controller(keeper_runtime: Path, project: Path) -> None:
    first = _warm(keeper_runtime, project)
    source = Path(warm_client.__file__)
    original = source.stat()
    try:
        os.utime(source, ns=(original.st_atime_ns, original.st_mtime_ns + 1_000_000_000))
        assert _run(keeper_runtime, project, "success.yml", "-l", "local").returncode == 0
        _wait_until(lambda: (_status(keeper_runtime) or first)["pid"] != first["pid"], "a fresh controller answers")
    finally:
        os.utime(source, ns=(original.st_atime_ns, original.st_mtime_ns))
    status = _status(keeper_runtime)
    assert status is not None and status["served"] == 0, "the stale controller served the run"
    _wait_until(lambda: first["pid"] not in keepers_under(str(keeper_runtime), (WARM_MODULE,)),
                "the stale controller ended")


@pytest.mark.parametrize("fault", ["mode", "owner"])
def test_an_unsafe_socket_directory_is_refused(keeper_runtime: Path, project: Path, fault: str) -> None:
    _warm(keeper_runtime, project)
    served = _served(keeper_runtime)
    directory = keeper_runtime / "provisioning"
    if fault == "mode":
        directory.chmod(0o755)
    else:
        os.chown(directory, 65534, -1)
    try:
        result = _run(keeper_runtime, project, "success.yml", "-l", "local")
    finally:
        os.chown(directory, os.getuid(), -1)
        directory.chmod(0o700)
    assert result.returncode == 0 and "refusing the keeper directory" in result.stderr, result.stderr
    assert _served(keeper_runtime) == served, "a run was served through an unsafe directory"


def test_another_user_is_turned_away(keeper_runtime: Path, project: Path) -> None:
    if os.getuid() != 0:
        pytest.skip("needs root to act as another user")
    _warm(keeper_runtime, project)
    path = socket_path(keeper_runtime / "provisioning")
    # Open the way in (the directory's search bit, the socket's mode; the directories above are reached through a
    # descriptor opened as root), so that only the controller's own check stands between.
    directory = os.open(path.parent, os.O_PATH)
    path.parent.chmod(0o711)
    path.chmod(0o666)
    try:
        probe = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""\
            import os, socket
            os.setgid(65534); os.setuid(65534)
            sock = socket.socket(socket.AF_UNIX)
            sock.connect("/proc/self/fd/{directory}/{path.name}")
            try:
                sock.sendall(b'\\x00\\x00\\x00\\x0f{{"op":"hello"}}')
                print(repr(sock.recv(100)) if sock.recv(100, socket.MSG_PEEK) else "closed")
            except (ConnectionResetError, BrokenPipeError):
                print("closed")
            """)], capture_output=True, text=True, timeout=RUN_TIMEOUT, pass_fds=[directory])
    finally:
        os.close(directory)
        path.chmod(0o600)
        path.parent.chmod(0o700)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == "closed", f"another user got an answer: {probe.stdout}"


def test_idle_expiry_ends_the_controller(keeper_runtime: Path, project: Path) -> None:
    assert _run(keeper_runtime, project, "success.yml", "-l", "local", persist="1").returncode == 0
    _wait_until(lambda: keepers_under(str(keeper_runtime), (WARM_MODULE,)), "the warm controller started")
    _wait_until(lambda: not keepers_under(str(keeper_runtime), (WARM_MODULE,)), "the warm controller ended")
    assert not socket_path(keeper_runtime / "provisioning").exists()


def test_a_cold_runs_output_ends_with_the_run(keeper_runtime: Path, project: Path) -> None:
    """The warm controller forked from the cold run holds none of its descriptors: a reader of the run's output
    sees its end when the run ends, while the controller lives on."""
    client = subprocess.Popen([script("provisioning-playbook"), "success.yml", "-l", "local", "-i", "hosts"],
                              cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_environment(keeper_runtime))
    stdout, stderr = client.communicate(timeout=RUN_TIMEOUT)  # returns at the end of both streams
    assert client.returncode == 0, stdout + stderr
    _wait_until(lambda: _status(keeper_runtime) is not None, "the warm controller answers")
    assert _run(keeper_runtime, project, "success.yml", "-l", "local").returncode == 0
    assert _served(keeper_runtime) == 1


def test_the_forked_controller_does_not_show_the_runs_command_line(keeper_runtime: Path, project: Path) -> None:
    """Forked from the cold run, the controller outlives it: whoever looks for the run's command (``pgrep -f
    success.yml``) must not find it, only its name and directory."""
    assert _run(keeper_runtime, project, "success.yml", "-l", "local").returncode == 0
    _wait_until(lambda: _status(keeper_runtime) is not None, "the warm controller answers")
    status = _status(keeper_runtime)
    assert status is not None
    command = Path(f"/proc/{status['pid']}/cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
    assert command.startswith("prov-warm ")
    assert "success.yml" not in command


def test_persist_0_in_the_configuration_leaves_no_controller(keeper_runtime: Path, project: Path) -> None:
    """Seen only once the run reads its configuration: the controller forked before is stopped."""
    (project / "provisioning.cfg").write_text("[ssh_connection]\npersist = 0\n")
    environment = _environment(keeper_runtime)
    del environment["PROVISIONING_PERSIST"]
    result = subprocess.run([script("provisioning-playbook"), "success.yml", "-l", "local", "-i", "hosts"],
                            cwd=project, capture_output=True, text=True, env=environment, timeout=RUN_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    _wait_until(lambda: not keepers_under(str(keeper_runtime), (WARM_MODULE,)), "the warm controller ended")
    assert _status(keeper_runtime) is None


def test_two_cold_runs_at_once_start_one_controller(keeper_runtime: Path, project: Path) -> None:
    clients = [subprocess.Popen([script("provisioning-playbook"), "success.yml", "-l", "local", "-i", "hosts"],
                                cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=_environment(keeper_runtime)) for _ in range(2)]
    for client in clients:
        stdout, stderr = client.communicate(timeout=RUN_TIMEOUT)
        assert client.returncode == 0, stdout + stderr
    _wait_until(lambda: _status(keeper_runtime) is not None, "the warm controller answers")
    status = _status(keeper_runtime)
    assert status is not None
    _wait_until(lambda: list(keepers_under(str(keeper_runtime), (WARM_MODULE,))) == [status["pid"]],
                "one controller is left")


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 99), (signal.SIGKILL, -signal.SIGKILL)],
                         ids=["SIGINT", "SIGKILL"])
def test_a_warm_run_stopped_leaves_none_of_its_lookups_commands(keeper_runtime: Path, project: Path, signum: int,
                                                                code: int) -> None:
    """Ctrl-C to the client, or the client killed (the controller then sends the run SIGTERM): the child's workers
    end their process groups, so a ``pipe`` lookup's shell and its child are gone too, found by the pids they
    wrote; the warm controller itself goes on."""
    pids = project / "pids"
    command = f"sleep 3600 & echo $! $$ >> {pids}; wait"
    (project / "lookup.yml").write_text(textwrap.dedent(f"""\
        - hosts: local
          gather_facts: false
          tasks:
            - debug:
                msg: "{{{{ lookup('pipe', {command!r}) }}}}"
        """))
    controller = _warm(keeper_runtime, project)["pid"]
    client = subprocess.Popen([script("provisioning-playbook"), "lookup.yml", "-i", "hosts"], cwd=project,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=_environment(keeper_runtime))
    started: list[int] = []
    try:
        _wait_until(lambda: pids.exists() and pids.read_text().strip(), "the lookup's command runs")
        started = [int(pid) for pid in pids.read_text().split()]
        assert (_status(keeper_runtime) or {}).get("running") == 1, "the run is not served warm"
        client.send_signal(signum)
        client.communicate(timeout=RUN_TIMEOUT)
        assert client.returncode == code
        _wait_until(lambda: (_status(keeper_runtime) or {}).get("running") == 0, "the warm run ended", timeout=30)
        left = [p for p in processes() if p.pid in started and p.running]
        assert not left, [p.command for p in left]
        assert (_status(keeper_runtime) or {}).get("pid") == controller  # the controller was not touched
    finally:
        client.kill()
        for pid in started:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
