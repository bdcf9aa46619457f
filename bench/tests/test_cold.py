"""bench/cold.py's accounting: which process is which of our daemons, and a process's CPU time from /proc."""

import os
import subprocess
import sys

from cold import _daemon_kind, _process_seconds


def test_our_daemons_are_told_apart_by_their_command_line() -> None:
    assert _daemon_kind("/venv/bin/python -m runner.connection.keeper.daemon /run/x 60.0 5") == "keeper"
    assert _daemon_kind("/venv/bin/python -m runner.warm.server /run/x 60.0 /venv/bin") == "warm"
    assert _daemon_kind("/usr/bin/git rev-parse HEAD") == "other live"


def test_daemons_forked_from_the_command_are_told_apart_by_their_names() -> None:
    assert _daemon_kind("/venv/bin/python /venv/bin/provisioning-playbook site.yml", "prov-warm") == "warm"
    assert _daemon_kind("/venv/bin/python /venv/bin/provisioning-playbook site.yml", "prov-keeper") == "keeper"
    assert _daemon_kind("/venv/bin/python /venv/bin/provisioning-playbook site.yml", "provisioning-pl") == "other live"


def test_a_live_process_cpu_time_counts_its_ended_threads_and_a_gone_one_is_zero() -> None:
    busy = (
        "import threading, time\n"
        "def spin():\n    end = time.process_time() + 0.3\n    while time.process_time() < end: pass\n"
        "t = threading.Thread(target=spin); t.start(); t.join(); print('ready', flush=True); time.sleep(30)"
    )
    process = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline().strip() == "ready"
        assert _process_seconds(process.pid) >= 0.25  # the thread that spun has ended
    finally:
        process.kill()
        process.wait()
    assert _process_seconds(process.pid) == 0.0
    assert _process_seconds(os.getpid()) > 0
