"""Connection variables (ansible_host, ansible_user, ansible_port, ansible_become*, ansible_python_interpreter,
ansible_connection) set at each level that can hold them, on real test hosts: where the task really ran (the
hostname it printed) and how it ended.

Every expectation is what ansible-core 2.19 does with the same playbooks and inventory (host1 is 127.0.0.20,
host2 .21, host3 .22): the variables take part in the variable precedence like any other, a delegated task
takes the delegated host's own variables under the play's and the task's, and a command line value such as
``-u`` is the lowest level of all.
"""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import pytest

from tests.support.playbook_run import CONFIG, PlaybookRun, run_playbook
from tests.support.scripts import script

pytestmark = pytest.mark.hosts

HOST2 = "127.0.0.21"
CONTROLLER = socket.gethostname()

# Task name -> the host it reached, as ansible-core reports it for connection_vars/site.yml.
WHERE_EACH_LEVEL_LEADS = {
    "inventory": "host1",
    "task vars": "host3",
    "templated task vars": "host2",
    "block vars": "host2",
    "task vars over block vars": "host3",
    "play vars": "host2",
    "delegated under play vars": "host2",  # play vars apply to the delegated host too
    "connparams : role params over role vars": "host2",
    "connvars : role vars": "host3",
    "include_vars": "host3",
    "set_fact": "host2",  # set after include_vars, and above it anyway
    "set_fact over task vars": "host2",
    "include params": "host3",
    "delegated to another host": "host3",  # host1's set_fact is not host3's
    "delegated with task vars": "host1",
    "delegated to localhost": CONTROLLER,
}


def reached(run: PlaybookRun) -> dict[str, str]:
    """Task name -> the hostname its command printed on host1's behalf."""
    return {name: run.task(name)["host1"].get("stdout", "") for name in WHERE_EACH_LEVEL_LEADS}


def test_each_level_moves_the_connection(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "connection_vars/site.yml")
    assert run.exit_code == 0, run.output
    assert reached(run) == WHERE_EACH_LEVEL_LEADS


def test_extra_vars_win_over_every_level(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "connection_vars/site.yml", "-e", f"ansible_host={HOST2}")
    assert run.exit_code == 0, run.output
    # Except on the implicit localhost, whose ansible_connection=local does not care for an address.
    assert reached(run) == {**dict.fromkeys(WHERE_EACH_LEVEL_LEADS, "host2"), "delegated to localhost": CONTROLLER}


def test_users_ports_become_and_interpreters_from_play_and_task_vars(inventory_path: Path) -> None:
    run = run_playbook(inventory_path, "connection_vars/users.yml")
    assert run.exit_code == 4, run.output
    assert run.task("the variable wins over the keyword")["host1"]["stdout"] == "root"
    play_user = run.task("play vars user")["host1"]
    assert play_user["unreachable"] and "permission denied" in play_user["msg"]
    port = run.task("task vars port")["host1"]
    assert port["unreachable"] and ":2999" in port["msg"]
    assert run.task("task vars become")["host1"]["stdout"] == "nobody"
    interpreter = run.task("task vars interpreter")["host1"]
    assert interpreter["failed"] and not interpreter.get("unreachable")
    assert (interpreter["rc"], interpreter["msg"]) == (127, "The module interpreter '/nonexistent' was not found.")
    assert run.task("back to the play's user")["host1"]["unreachable"]


@pytest.mark.parametrize(("args", "code", "outcome"), [
    (["-e", f"ansible_host={HOST2}"], 0, "host2"),
    (["-e", "ansible_host={{ other }}", "-e", f"other={HOST2}"], 0, "host2"),
    (["-e", "ansible_port=2999"], 4, "Connect call failed"),
    (["-e", "ansible_user=nosuchuser"], 4, "permission denied logging in to 127.0.0.20:22 as nosuchuser"),
    (["-e", "ansible_python_interpreter=/nonexistent"], 2, "The module interpreter '/nonexistent' was not found."),
    (["-e", "ansible_port=twenty-two"], 2, "ansible_port must be a port number from 1 to 65535, got 'twenty-two'"),
    (["-u", "nosuchuser"], 0, "host1"),  # a command line value loses to the inventory's ansible_user
], ids=["host", "templated-host", "port", "user", "interpreter", "bad-port", "command-line-user"])
def test_extra_vars_in_a_playbook_and_ad_hoc(inventory_path: Path, args: list[str], code: int,
                                             outcome: str) -> None:
    run = run_playbook(inventory_path, "connection_vars/hostname.yml", *args)
    assert run.exit_code == code, run.output
    result = run.task("hostname")["host1"]
    assert outcome in (result.get("stdout") if code == 0 else result["msg"]), run.output
    adhoc = subprocess.run([script("provisioning"), "host1", "-a", "hostname", "-i", str(inventory_path), *args],
                           capture_output=True, text=True, timeout=120,
                           env={**os.environ, "PROVISIONING_CONFIG": str(CONFIG)})
    assert adhoc.returncode == code, adhoc.stdout + adhoc.stderr
    assert outcome in adhoc.stdout, adhoc.stdout + adhoc.stderr
