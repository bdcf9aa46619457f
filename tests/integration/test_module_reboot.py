"""reboot against a test host of this module's own (env "reboot", 127.0.0.28), rebooted for real.

A test host is a PID namespace with its own sshd: reboot(2) called inside it ends every process of the host
(its init is killed, as the kernel does for a PID namespace), and the test env boots it again on the same
disk (``TestEnv.boot_host``: its overlay's upper layer and host key kept), with a fresh /tmp and /run, as a
machine boots again. The machine's boot id
does not change, so the boot time read is the start time of the host's init (field 22 of /proc/1/stat). The
reboot command refuses to run in the machine's own PID namespace, so it can never reboot the machine.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator

import pytest

from runner.testenv import TestEnv
from tests.support.local_host import LocalHost
from tests.support.own_env import own_env
from tests.support.remote_harness import RemoteHost

pytestmark = pytest.mark.hosts

BOOT_TIME = "cut -d' ' -f22 /proc/1/stat"
MACHINE_PID_NAMESPACE = os.readlink("/proc/self/ns/pid")
# glibc's reboot(RB_AUTOBOOT); in a PID namespace other than the machine's, the kernel ends that namespace instead
NAMESPACE_REBOOT = ("python3 -c 'import ctypes, os, sys; "
                    f"sys.exit(\"refusing: the machine namespace\") if os.readlink(\"/proc/self/ns/pid\") == "
                    f"\"{MACHINE_PID_NAMESPACE}\" else ctypes.CDLL(None).reboot(0x1234567)'")


class Restarter:
    """Starts the env's host again whenever its init has ended: what powering a machine back on is to it."""

    def __init__(self, env: TestEnv):
        self.env = env
        self.name = env.hosts()[0].name
        self.restarts = 0
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        while not self.stopping.wait(0.2):
            if not any(host.name == self.name for host in self.env.hosts()):
                self.env.boot_host(self.name)
                self.restarts += 1

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join()


@pytest.fixture(scope="module")
def env() -> Iterator[TestEnv]:
    for env in own_env("reboot", count=1, base_address=28, prefix="rb"):
        restarter = Restarter(env)
        try:
            yield env
        finally:
            restarter.stop()


@pytest.fixture(scope="module")
def host(env: TestEnv) -> Iterator[RemoteHost]:
    remote = RemoteHost(env)
    yield remote
    remote.close()


def init_pid(env: TestEnv) -> int:
    return env.hosts()[0].pid


def test_a_real_reboot_is_waited_for(env: TestEnv, host: RemoteHost) -> None:
    host.shell("touch /tmp/gone-after-reboot /root/kept-on-disk")
    before = init_pid(env)
    started = time.monotonic()
    result = host.run("reboot", {"reboot_command": NAMESPACE_REBOOT, "boot_time_command": BOOT_TIME,
                                 "connect_timeout": 5, "reboot_timeout": 120})
    assert result.get("failed") is not True, result
    assert result["changed"] is True and result["rebooted"] is True
    assert 0 <= result["elapsed"] <= time.monotonic() - started
    assert init_pid(env) != before
    # the task's session answers again (a new connection), on a host that booted: /tmp is new, the disk is kept
    assert host.shell("ls /tmp/gone-after-reboot /root/kept-on-disk 2>&1 || true").splitlines() == [
        "ls: cannot access '/tmp/gone-after-reboot': No such file or directory", "/root/kept-on-disk"]


def test_check_mode_reports_a_reboot_and_runs_nothing(env: TestEnv, host: RemoteHost) -> None:
    before = init_pid(env)
    result = host.run("reboot", {"reboot_command": NAMESPACE_REBOOT}, check=True)
    assert result == {"changed": True, "elapsed": 0, "rebooted": True}
    assert init_pid(env) == before


def test_the_shutdown_command_is_found_in_search_paths_with_the_delay_and_message(host: RemoteHost) -> None:
    """A stand-in shutdown that records its arguments and fails, so the task stops at the command it issued."""
    host.shell("mkdir -p /opt/fake-sbin && cat > /opt/fake-sbin/shutdown <<'END'\n#!/bin/sh\n"
               "printf '%s|' \"$@\" > /tmp/shutdown-args\necho refused >&2\nexit 1\nEND\n"
               "chmod 755 /opt/fake-sbin/shutdown")
    result = host.run("reboot", {"search_paths": ["/opt/fake-sbin"], "pre_reboot_delay": 150,
                                 "msg": "Kernel update", "boot_time_command": BOOT_TIME})
    assert result["failed"] is True and result["rebooted"] is False
    assert result["msg"] == "Reboot command failed. Error was: ', refused'"
    assert host.shell("cat /tmp/shutdown-args") == "-r|2|Kernel update|"  # minutes, rounded down

    missing = host.run("reboot", {"search_paths": ["/nonexistent"], "boot_time_command": BOOT_TIME})
    assert missing["failed"] is True
    assert missing["msg"] == "Unable to find command \"shutdown\" in search paths: ['/nonexistent']"


def test_a_host_that_does_not_go_down_times_out(env: TestEnv, host: RemoteHost) -> None:
    before = init_pid(env)
    result = host.run("reboot", {"reboot_command": "/bin/true", "boot_time_command": BOOT_TIME,
                                 "reboot_timeout": 2})
    assert result["failed"] is True and result["rebooted"] is True
    assert result["msg"] == "Timed out waiting for last boot time check (timeout=2)"
    assert init_pid(env) == before


def test_bad_arguments_and_boot_time_failures_are_clear(host: RemoteHost) -> None:
    unknown = host.run("reboot", {"reboot_timeout_sec": 5})
    assert unknown["failed"] is True and "reboot_timeout_sec" in unknown["msg"]
    no_boot_time = host.run("reboot", {"boot_time_command": "exit 4"})
    assert no_boot_time["failed"] is True and no_boot_time["rebooted"] is False
    assert no_boot_time["msg"].startswith("reboot: failed to get host boot time info, rc: 4")


def test_the_local_connection_is_refused(local_host: LocalHost) -> None:
    result = local_host.run("reboot", {"reboot_command": "/bin/false"})
    assert result == {"changed": False, "elapsed": 0, "rebooted": False, "failed": True,
                      "msg": "Running reboot with local connection would reboot the control node."}
