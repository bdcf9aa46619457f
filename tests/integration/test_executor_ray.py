"""The Ray executor on a real two-node Ray cluster on this machine: the same playbooks give the same output, recap
and results as with local workers; a worker node that dies makes its hosts UNREACHABLE and the rest finish; a
cluster that cannot be reached is an error before any host is touched; Ctrl-C ends the actors and their agents.

Hosts are local-connection hosts (as the executor's unit tests use) and the session's test hosts; h2 carries
``provisioning_shard: dc-east``, so its worker runs on the worker node and the others' on either node, and every
playbook crosses nodes.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from runner.testenv import TestEnv, unavailable_reason
from tests.integration.host_faults import AGENT_COMMAND, host_processes
from tests.plugin.ray_cluster import RayCluster
from tests.support.playbook_run import CONFIG, PlaybookRun, run_playbook
from tests.support.scripts import script

pytestmark = pytest.mark.hosts

# Each playbook exercises semantics the controller keeps whatever the executor; ``{{ shared }}`` is a directory
# every host writes its log lines to, in the order things ran.
PLAYBOOKS: dict[str, str] = {
    "linear, hostvars across actors, handlers": """
        - hosts: all
          gather_facts: false
          tasks:
            - name: mark
              shell: echo {{ inventory_hostname }}-one >> {{ shared }}/log
              notify: restart
            - name: learn
              set_fact:
                mine: "{{ inventory_hostname }}-value"
            - name: register
              command: echo registered-{{ inventory_hostname }}
              register: said
            - name: see every host
              debug:
                msg: "{{ groups['all'] | map('extract', hostvars, 'mine') | list }} {{ hostvars['h2'].said.stdout }}"
          handlers:
            - name: restart
              shell: echo {{ inventory_hostname }}-handler >> {{ shared }}/log
        """,
    "free": """
        - hosts: all
          gather_facts: false
          strategy: free
          tasks:
            - name: one
              command: echo {{ inventory_hostname }}
            - name: two
              debug:
                msg: "{{ inventory_hostname }} done"
        """,
    "serial and run_once": """
        - hosts: all
          gather_facts: false
          serial: 2
          tasks:
            - name: once per batch
              shell: echo {{ inventory_hostname }} >> {{ shared }}/log; echo ran-on-{{ inventory_hostname }}
              run_once: true
              register: once
            - name: shared result
              debug:
                msg: "{{ once.stdout }}"
        """,
    "any_errors_fatal": """
        - hosts: all
          gather_facts: false
          any_errors_fatal: true
          tasks:
            - name: fail on h2
              command: /bin/false
              when: inventory_hostname == 'h2'
            - name: never
              debug:
                msg: not reached
        """,
    "max_fail_percentage": """
        - hosts: all
          gather_facts: false
          max_fail_percentage: 20
          tasks:
            - name: fail on h3
              command: /bin/false
              when: inventory_hostname == 'h3'
            - name: after
              debug:
                msg: not reached
        """,
    "delegate_to, add_host, group_by": """
        - hosts: all
          gather_facts: false
          tasks:
            - name: delegated
              command: echo from-{{ inventory_hostname }}
              delegate_to: h1
              register: delegated
            - name: group
              group_by:
                key: "kind_{{ 'odd' if inventory_hostname in ['h1', 'h3'] else 'even' }}"
            - name: add
              add_host:
                name: extra
                groups: added
                ansible_connection: local
              run_once: true
        - hosts: kind_odd:added
          gather_facts: false
          tasks:
            - name: in the new groups
              debug:
                msg: "{{ inventory_hostname }} {{ groups['kind_even'] }}"
        """,
    "check mode and async": """
        - hosts: all
          gather_facts: false
          tasks:
            - name: in check mode
              copy:
                content: x
                dest: "{{ shared }}/{{ inventory_hostname }}-check"
              check_mode: true
            - name: background
              command: echo async-{{ inventory_hostname }}
              async: 30
              poll: 1
            - name: fire and forget
              command: sleep 1
              async: 30
              poll: 0
              register: job
            - name: wait for it
              async_status:
                jid: "{{ job.ansible_job_id }}"
              register: waited
              until: waited.finished
              retries: 30
              delay: 1
        """,
}


def _hosts_inventory(base: Path, extra: dict[str, Any] | None = None) -> Path:
    shared = base / "shared"
    shared.mkdir(exist_ok=True)
    hosts = {name: {"ansible_connection": "local"} for name in ("h1", "h2", "h3")}
    hosts["h2"]["provisioning_shard"] = "dc-east"
    inventory = base / "inventory.yml"
    inventory.write_text(json.dumps({"all": {"hosts": {**hosts, **(extra or {})}, "vars": {"shared": str(shared)}}}))
    return inventory


def _play(base: Path, text: str, *args: str, executor: str, extra: dict[str, Any] | None = None
          ) -> tuple[PlaybookRun, list[str]]:
    base.mkdir()
    inventory = _hosts_inventory(base, extra)
    playbook = base / "playbook.yml"
    playbook.write_text(textwrap.dedent(text))
    run = run_playbook(inventory, playbook, *args, subprocess_run=True,
                       env={"PROVISIONING_EXECUTOR": executor})
    log = base / "shared" / "log"
    return run, sorted(log.read_text().split()) if log.exists() else []


def _without_run_dir(value: Any) -> Any:
    """``value`` with the run's own directory (.../local/ or .../ray/, which messages name) taken out."""
    return re.sub(r"/tmp/\S+?/(local|ray)/", "/RUN/", value) if isinstance(value, str) else value


def _comparable(run: PlaybookRun, *, ordered: bool = True) -> dict[str, Any]:
    """What must be the same whatever the executor: the recap, every task's per-host outcome and message, and the
    output with times and paths of the run's own directory taken out."""
    assert run.report is not None, run.output
    tasks = []
    for play in run.report["plays"]:
        for task in play["tasks"]:
            tasks.append((task["task"]["name"], {
                host: {key: _without_run_dir(result.get(key)) for key in ("changed", "failed", "skipped",
                                                                           "unreachable", "msg", "stdout", "rc")}
                for host, result in sorted(task["hosts"].items())}))
    output = _without_run_dir(run.output)
    # how many times an async task was polled, or an until task retried, follows the time it took; its job id is
    # the host's own
    output = "\n".join(line for line in output.split("\n")
                       if not line.startswith(("ASYNC POLL on ", "FAILED - RETRYING: ")))
    output = re.sub(r"jid=\S+", "jid=JID", output)
    output = re.sub(r"\d+\.\d+s|\d{4}-\d\d-\d\d[ T][\d:.]+|\d+:\d\d:\d\d\.\d+", "TIME", output)
    if not ordered:  # hosts going at their own pace: what each did, whatever the order they did it in
        tasks.sort(key=repr)
        # the distinct lines: a task's header is printed again whenever another task's result came in between,
        # so how often it appears depends on the interleaving, with either executor
        output = "\n".join(sorted({line for line in output.splitlines() if line.strip()}))
    return {"exit": run.exit_code, "stats": run.stats, "tasks": tasks, "output": output}


def _assert_same_run(name: str, ray_cluster: RayCluster, tmp_path: Path, extra: dict[str, Any] | None = None
                     ) -> PlaybookRun:
    local, local_log = _play(tmp_path / "local", PLAYBOOKS[name], executor="local", extra=extra)
    ray, ray_log = _play(tmp_path / "ray", PLAYBOOKS[name], executor=ray_cluster.executor, extra=extra)
    ordered = name != "free"
    assert _comparable(ray, ordered=ordered) == _comparable(local, ordered=ordered), ray.output
    assert ray_log == local_log
    return ray


@pytest.mark.parametrize("name", list(PLAYBOOKS))
def test_a_playbook_gives_the_same_run_with_ray_as_with_local_workers(
        name: str, ray_cluster: RayCluster, tmp_path: Path) -> None:
    _assert_same_run(name, ray_cluster, tmp_path)
    assert not ray_cluster.actor_pids(), "the run's actors outlived it"


# Three more hosts, h5 on the worker node with h2: each node's actors hold several hosts, so a task's jobs travel
# several to an actor call.
MORE_HOSTS = {"h4": {"ansible_connection": "local"}, "h6": {"ansible_connection": "local"},
              "h5": {"ansible_connection": "local", "provisioning_shard": "dc-east"}}
PINGS = """
    - hosts: all
      gather_facts: false
      tasks:
        - name: one
          ping:
        - name: two
          ping:
    """


@pytest.mark.parametrize("name", ["linear, hostvars across actors, handlers", "free"])
def test_several_hosts_per_actor_call_give_the_same_run_as_local_workers(
        name: str, ray_cluster: RayCluster, tmp_path: Path) -> None:
    assert len(_assert_same_run(name, ray_cluster, tmp_path, MORE_HOSTS).stats) == 6


def test_under_linear_each_actor_gets_one_call_per_task(ray_cluster: RayCluster, tmp_path: Path) -> None:
    run, _ = _play(tmp_path / "ray", PINGS, "-vvvv", "--forks", "6", executor=ray_cluster.executor,
                   extra=MORE_HOSTS)  # every host in flight
    assert run.exit_code == 0, run.output
    holders = re.findall(r"WORKER actor pid \d+ on \S+ \(shard \S+\) holds (.*)", run.output)  # in actor order
    calls = [(int(actor), int(jobs)) for actor, jobs in
             re.findall(r"WORKER actor (\d+): one call, ([1-9]\d*) jobs?", run.output)]  # updates alone aside
    # Two tasks: each actor is called twice, with every host it holds each time.
    assert sorted(calls) == sorted((actor, len(hosts.split(", "))) for actor, hosts in enumerate(holders)
                                   for _ in range(2)), run.output
    assert len(holders) == 3 and sum(jobs for _, jobs in calls) == 12, run.output


def test_start_at_task_gives_the_same_run_with_ray(ray_cluster: RayCluster, tmp_path: Path) -> None:
    text = PLAYBOOKS["linear, hostvars across actors, handlers"]
    local, _ = _play(tmp_path / "local", text, "--start-at-task", "register", executor="local")
    ray, _ = _play(tmp_path / "ray", text, "--start-at-task", "register", executor=ray_cluster.executor)
    assert _comparable(ray) == _comparable(local), ray.output
    assert [name for name, _ in _comparable(ray)["tasks"]] == ["register", "see every host"]


def test_hosts_of_a_shard_run_on_the_node_offering_it(ray_cluster: RayCluster, tmp_path: Path) -> None:
    run, _ = _play(tmp_path / "ray", PINGS, "-vvvv", executor=ray_cluster.executor)
    assert run.exit_code == 0, run.output
    placed = re.findall(r"WORKER actor pid \d+ on \S+ \(shard (\S+)\) holds (.*)", run.output)
    assert ("dc-east", "h2") in placed, run.output


def test_a_shard_no_node_offers_is_an_error_before_any_host_is_touched(
        ray_cluster: RayCluster, tmp_path: Path) -> None:
    base = tmp_path / "ray"
    base.mkdir()
    inventory = _hosts_inventory(base, {"h4": {"ansible_connection": "local", "provisioning_shard": "dc-west"}})
    playbook = base / "playbook.yml"
    playbook.write_text("- hosts: all\n  gather_facts: false\n  tasks:\n"
                        "    - shell: echo x >> {{ shared }}/log\n")
    run = run_playbook(inventory, playbook, subprocess_run=True, env={"PROVISIONING_EXECUTOR": ray_cluster.executor})
    assert run.exit_code == 1, run.output
    assert "shard:dc-west" in run.output and "Traceback" not in run.output
    assert not (base / "shared" / "log").exists()


def test_an_unreachable_cluster_is_an_error_before_any_host_is_touched(ray_installed: None, tmp_path: Path) -> None:
    run, log = _play(tmp_path / "ray", "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                       "    - shell: echo x >> {{ shared }}/log\n", executor="ray://127.0.0.1:9")
    assert run.exit_code == 1, run.output
    assert "cannot reach the Ray cluster at 127.0.0.1:9" in run.output and "Traceback" not in run.output
    assert "PLAY [" not in run.output and log == []


@pytest.fixture(scope="module")
def own_hosts() -> Iterator[TestEnv]:
    """Three test hosts of this module's own (127.0.0.24-26): what is left on them is the run's alone."""
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="ray", count=3, base_address=24)
    env.up()
    try:
        yield env
    finally:
        env.down()


def test_ctrl_c_stops_the_actors_and_their_agents(ray_cluster: RayCluster, own_hosts: TestEnv,
                                                  tmp_path: Path) -> None:
    playbook = tmp_path / "playbook.yml"
    playbook.write_text("- hosts: testhosts\n  gather_facts: false\n  tasks:\n"
                        "    - name: long\n      command: sleep 300\n")
    run_process = subprocess.Popen(
        [script("provisioning-playbook"), str(playbook), "-i", str(own_hosts.inventory_path)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PROVISIONING_CONFIG": str(CONFIG), "PROVISIONING_EXECUTOR": ray_cluster.executor})
    names = [host.name for host in own_hosts.hosts()]
    try:
        _wait_for(lambda: all(_on_host(own_hosts, name, "sleep 300") for name in names), 180,
                  "the hosts never started sleeping")
        run_process.send_signal(signal.SIGINT)
        output, _ = run_process.communicate(timeout=120)
    finally:
        if run_process.poll() is None:
            run_process.kill()
            run_process.wait()
    assert run_process.returncode == 99, output
    for leftover in ("sleep 300", AGENT_COMMAND):
        _wait_for(lambda: not any(_on_host(own_hosts, name, leftover) for name in names), 30,  # noqa: B023
                  f"{leftover!r} outlived the run on a host")
    _wait_for(lambda: not ray_cluster.actor_pids(), 30, "the run's actors outlived it")


def _on_host(env: TestEnv, name: str, command: str) -> bool:
    return any(line.startswith(command) for line in host_processes(env, name).values())


def test_a_worker_node_that_dies_mid_round_makes_its_hosts_unreachable_and_the_rest_finish(
        ray_cluster: RayCluster, tmp_path: Path) -> None:
    base = tmp_path / "ray"
    base.mkdir()
    on_head = {"ansible_connection": "local", "provisioning_shard": "bastion"}
    on_worker = {"ansible_connection": "local", "provisioning_shard": "dc-east"}
    # h2 and h5 on the worker node, in one actor call; h1, h3, h4 on the head
    inventory = _hosts_inventory(base, {"h1": on_head, "h3": on_head, "h4": on_head, "h5": on_worker})
    playbook = base / "playbook.yml"
    started = base / "shared"
    playbook.write_text(textwrap.dedent(f"""
        - hosts: all
          gather_facts: false
          tasks:
            - name: long
              shell: touch {started}/started-{{{{ inventory_hostname }}}}; sleep 20
            - name: after
              debug:
                msg: still here
        """))
    run_process = subprocess.Popen(
        [script("provisioning-playbook"), str(playbook), "-i", str(inventory)], stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True,
        env={**os.environ, "PROVISIONING_CONFIG": str(CONFIG), "PROVISIONING_EXECUTOR": ray_cluster.executor})
    try:
        _wait_for(lambda: all((started / f"started-{host}").exists() for host in ("h2", "h5")), 180,
                  "the long task never started on the worker node's hosts")
        os.kill(ray_cluster.raylet_pid("worker"), signal.SIGKILL)
        output, _ = run_process.communicate(timeout=240)
    finally:
        if run_process.poll() is None:
            run_process.kill()
            run_process.wait()
    assert run_process.returncode == 4, output
    assert "(raylet)" not in output, "Ray's own messages cut into the run's output"
    recap = dict(re.findall(r"^(h\d)\s+: (.*)$", output, re.MULTILINE))
    for host in ("h2", "h5"):
        assert "unreachable=1" in recap[host], output
    for host in ("h1", "h3", "h4"):
        assert "unreachable=0" in recap[host] and "ok=2" in recap[host], output
    # The cluster is one node short from here on: the next module starts a fresh one.
    ray_cluster.stop()


def _wait_for(condition: Any, timeout: float, failure: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(failure)
        time.sleep(0.5)
