"""`provisioning PATTERN -m MODULE -a ARGS` against real local test hosts: output, exit codes, become, failures
of some hosts beside others, host keys, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from runner.testenv import SUDOPW_PASSWORD, TestEnv
from tests.support.scripts import script

pytestmark = pytest.mark.hosts


def adhoc(inventory: Path, *args: str, timeout: float = 120, env: dict[str, str] | None = None,
          stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script("provisioning"), *args, "-i", str(inventory)], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})}, input=stdin)


def test_ping_every_host(inventory_path: Path) -> None:
    run = adhoc(inventory_path, "testhosts", "-m", "ping")
    assert run.returncode == 0, run.stderr
    for name in ("host1", "host2", "host3"):
        assert f'{name} | SUCCESS => {{\n    "changed": false,\n    "ping": "pong"\n}}' in run.stdout


def test_command_output_like_ansible(inventory_path: Path) -> None:
    run = adhoc(inventory_path, "host2", "-a", "hostname")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "host2 | CHANGED | rc=0 >>\nhost2\n"


def test_shell_one_line_and_failure_exit_code(inventory_path: Path) -> None:
    run = adhoc(inventory_path, "testhosts", "-m", "shell", "-a", "echo out; echo err >&2; exit 3", "-o")
    assert run.returncode == 2
    lines = sorted(run.stdout.splitlines())
    assert lines == [f"{h} | FAILED | rc=3 | (stdout) out (stderr) err" for h in ("host1", "host2", "host3")]


def test_free_form_and_json_arguments_are_equivalent(inventory_path: Path) -> None:
    path = f"/tmp/adhoc-kv-{os.getpid()}"  # this test run's own: the hosts may be shared with another session
    adhoc(inventory_path, "host1", "-m", "file", "-a", f"path={path} state=absent")
    kv = adhoc(inventory_path, "host1", "-m", "copy", "-a", f"content='a b' dest={path} mode=0600", "-o")
    as_json = adhoc(inventory_path, "host1", "-m", "copy", "-a",
                    json.dumps({"content": "a b", "dest": path, "mode": "0600"}), "-o")
    adhoc(inventory_path, "host1", "-m", "file", "-a", f"path={path} state=absent")
    assert kv.returncode == 0 and as_json.returncode == 0, kv.stderr + as_json.stderr
    assert "CHANGED" in kv.stdout and "SUCCESS" in as_json.stdout and '"mode": "0600"' in as_json.stdout


def test_check_mode_predicts_and_changes_nothing(inventory_path: Path) -> None:
    # A path of this test run's own: the hosts may be shared with another test session on the machine.
    path = f"/tmp/adhoc-check-{os.getpid()}"
    args = ["host1", "-m", "copy", "-a", f"content=checked dest={path}", "-o"]
    adhoc(inventory_path, "host1", "-m", "file", "-a", f"path={path} state=absent")
    predicted = adhoc(inventory_path, *args, "--check", "--diff")
    assert predicted.returncode == 0 and "CHANGED" in predicted.stdout
    assert "+checked" in predicted.stdout  # the diff is shown
    still = adhoc(inventory_path, "host1", "-m", "stat", "-a", f"path={path}", "-o")
    assert '"exists": false' in still.stdout
    assert "CHANGED" in adhoc(inventory_path, *args).stdout
    assert "SUCCESS" in adhoc(inventory_path, *args).stdout
    adhoc(inventory_path, "host1", "-m", "file", "-a", f"path={path} state=absent")


def test_become_to_another_user(inventory_path: Path) -> None:
    run = adhoc(inventory_path, "host1", "-m", "command", "-a", "id -un", "-b", "--become-user", "deploy")
    assert run.returncode == 0, run.stderr
    assert run.stdout.endswith("deploy\n")


def test_become_with_password_right_and_wrong(testenv: TestEnv, inventory_path: Path) -> None:
    def forget_sudo_authentication() -> None:  # sudo remembers a recent password; this test needs it asked
        assert adhoc(inventory_path, "host1", "-e", "ansible_user=sudopw", "-m", "raw", "-a", "sudo -K").returncode == 0

    forget_sudo_authentication()
    missing = adhoc(inventory_path, "host1", "-a", "id -un", "-e", "ansible_user=sudopw", "-b", timeout=60)
    assert missing.returncode == 2 and "Missing sudo password" in missing.stdout
    wrong = adhoc(inventory_path, "host1", "-a", "id -un", "-e", "ansible_user=sudopw", "-b",
                  "-e", "ansible_become_password=nope", timeout=60)
    assert wrong.returncode == 2
    assert "Incorrect sudo password" in wrong.stdout
    vars_right = ["-e", "ansible_user=sudopw", "-b", "-e", f"ansible_become_password={SUDOPW_PASSWORD}"]
    right = adhoc(inventory_path, "host1", "-a", "id -un", *vars_right)
    assert right.returncode == 0, right.stdout + right.stderr
    assert right.stdout.endswith("root\n")


def _inventory_with(tmp_path: Path, inventory_path: Path, extra_hosts: str) -> Path:
    copy = tmp_path / "inventory"
    copy.mkdir()
    shutil.copy(inventory_path, copy / "testhosts.yml")
    (copy / "extra.ini").write_text(extra_hosts)
    return copy


def test_unreachable_host_beside_reachable_ones(tmp_path: Path, inventory_path: Path) -> None:
    ghost = "ghost ansible_host=127.0.0.99 ansible_user=root ansible_ssh_timeout=2 provisioning_host_key_checking=false"
    inventory = _inventory_with(tmp_path, inventory_path, f"[gone]\n{ghost}\n")
    run = adhoc(inventory, "all", "-m", "ping", "-o", timeout=60)
    assert run.returncode == 4
    assert "ghost | UNREACHABLE! =>" in run.stdout
    for name in ("host1", "host2", "host3"):
        assert f'{name} | SUCCESS => {{"changed": false, "ping": "pong"}}' in run.stdout


def test_changed_host_key_is_rejected(tmp_path: Path, testenv: TestEnv, inventory_path: Path) -> None:
    hosts = testenv.hosts()
    wrong = tmp_path / "known_hosts"
    # host1's address with host2's key: the key "has changed".
    key_of_host2 = next(line.split(None, 1)[1] for line in testenv.known_hosts.read_text().splitlines()
                        if line.startswith(hosts[1].address + " "))
    wrong.write_text(f"{hosts[0].address} {key_of_host2}\n")
    run = adhoc(inventory_path, "host1", "-m", "ping", "-e", f"provisioning_ssh_known_hosts_file={wrong}")
    assert run.returncode == 4
    assert "UNREACHABLE!" in run.stdout and "host key verification failed" in run.stdout
    off = adhoc(inventory_path, "host1", "-m", "ping", "-e", f"provisioning_ssh_known_hosts_file={wrong}",
                "-e", "provisioning_host_key_checking=false")
    assert off.returncode == 0, off.stdout


def _remote_processes(inventory: Path, host: str, pattern: str) -> str:
    run = adhoc(inventory, host, "-m", "raw", "-a", f"ps -eo args | grep -F -- '{pattern}' | grep -v grep || true")
    return run.stdout.split(">>", 1)[-1].strip()


def test_ctrl_c_stops_cleanly(tmp_path: Path, inventory_path: Path) -> None:
    marker = f"sleep 4242{os.getpid() % 100}"
    process = subprocess.Popen([script("provisioning"), "testhosts", "-i", str(inventory_path), "-m", "shell", "-a",
                                f"{marker}; echo finished > /tmp/ctrl-c-marker"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and marker not in _remote_processes(inventory_path, "host3", marker):
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 99, stderr
    time.sleep(0.5)
    for host in ("host1", "host2", "host3"):
        assert marker not in _remote_processes(inventory_path, host, marker)
    check = adhoc(inventory_path, "testhosts", "-m", "stat", "-a", "path=/tmp/ctrl-c-marker", "-o")
    assert check.stdout.count('"exists": false') == 3


def test_interrupted_large_copy_leaves_no_partial_file(tmp_path: Path, inventory_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(1 << 20) * 48)  # 48 MiB: takes long enough to interrupt mid-stream
    target = f"/tmp/interrupted-{os.getpid()}"  # apart from any other session using the same test hosts
    adhoc(inventory_path, "host1", "-m", "file", "-a", f"path={target} state=directory")
    process = subprocess.Popen([script("provisioning"), "host1", "-i", str(inventory_path), "-m", "copy", "-a",
                                f"src={big} dest={target}/big.bin"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    time.sleep(1.0)
    os.killpg(process.pid, signal.SIGINT)
    process.communicate(timeout=30)
    # The host's agent notices the closed channel a moment after the controller exits, then removes its files.
    deadline = time.monotonic() + 10
    while True:
        listing = adhoc(inventory_path, "host1", "-m", "raw", "-a", f"ls -A {target}")
        names = listing.stdout.split(">>", 1)[-1].split()
        if names in ([], ["big.bin"]) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert names in ([], ["big.bin"])  # either nothing, or the whole file: never a temp or partial file
    if names:
        size = adhoc(inventory_path, "host1", "-m", "stat", "-a", f"path={target}/big.bin", "-o")
        assert f'"size": {48 << 20}' in size.stdout


def test_list_hosts_touches_nothing(inventory_path: Path) -> None:
    run = adhoc(inventory_path, "testhosts:!host2", "--list-hosts", "-m", "ping")
    assert run.returncode == 0
    assert run.stdout == "  hosts (2):\n    host1\n    host3\n"


def test_background_and_poll(inventory_path: Path) -> None:
    waited = adhoc(inventory_path, "host1", "-a", "echo waited", "-B", "30", "-P", "1")
    assert waited.returncode == 0 and "host1 | CHANGED | rc=0 >>\nwaited" in waited.stdout, waited.stdout
    over = adhoc(inventory_path, "host1", "-a", "sleep 33.1", "-B", "1")
    assert over.returncode == 2 and "did not complete within the requested time - 1s" in over.stdout

    started = adhoc(inventory_path, "host1", "-m", "shell", "-a", "sleep 1; echo later", "-B", "30", "-P", "0")
    assert started.returncode == 0 and "host1 | CHANGED =>" in started.stdout, started.stdout
    job = json.loads(started.stdout.split("=>", 1)[1])
    assert job["started"] is True and job["finished"] is False
    deadline = time.monotonic() + 30
    while True:
        status = adhoc(inventory_path, "host1", "-m", "async_status", "-a", f"jid={job['ansible_job_id']}")
        state = json.loads(status.stdout.split("=>", 1)[1])
        if state["finished"] or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert state["finished"] is True and state["stdout"] == "later", status.stdout

    checked = adhoc(inventory_path, "host1", "-m", "file", "-a", "path=/tmp/adhoc-async-check state=touch", "-B",
                    "10", "--check")  # ansible-core 2.19 runs it, in check mode
    assert checked.returncode == 0 and "CHANGED" in checked.stdout, checked.stdout
