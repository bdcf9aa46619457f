"""The typed envelope a playbook worker builds for a task: the module's result apart from the task's effects on
the run, made by a real worker from a compiled plan (only tasks that need no host here)."""

from __future__ import annotations

import asyncio
import pickle
from pathlib import Path

import pytest

from runner.actions.run_state import AddedHost, JoinedGroup
from runner.compiler import Compiler
from runner.connection import ConnectionSettings
from runner.executor.playbook_worker import PlaybookWorker, RunOptions
from runner.executor.task_result import TaskResult, received
from runner.inventory.sources import load_inventory

PLAYBOOK = """\
- hosts: web
  gather_facts: false
  tasks:
    - name: facts
      set_fact:
        color: blue
      register: registered
    - name: items
      set_fact:
        "{{ item }}": 1
      loop: [one, two]
    - name: newcomer
      add_host:
        name: db1
        groups: db
    - name: grouped
      group_by:
        key: tier_front
    - name: ending
      meta: end_host
    - name: included
      include_tasks: other.yml
    - name: secret
      debug:
        msg: hidden
      no_log: true
"""


@pytest.fixture
def worker(tmp_path: Path) -> PlaybookWorker:
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    (tmp_path / "other.yml").write_text("- debug:\n    msg: included\n")
    (tmp_path / "hosts.ini").write_text("[web]\nweb1\n")
    plan = Compiler().compile_playbooks([tmp_path / "site.yml"])
    inventory = load_inventory([tmp_path / "hosts.ini"], playbook_dir=tmp_path)
    return PlaybookWorker(plan, inventory, RunOptions(defaults=ConnectionSettings(name="-", address="-")))


def run(worker: PlaybookWorker, name: str) -> TaskResult:
    task = next(task for task in worker.plan.tasks if task.name == name)
    payload = {"task": task.id, "vars": {}, "play_scopes": worker.plan.plays[0].scopes}
    return asyncio.run(worker.handle("web1", payload))


def test_set_fact_and_register_are_effects_beside_the_result(worker: PlaybookWorker) -> None:
    outcome = run(worker, "facts")
    assert outcome.status == "ok"
    assert outcome.result == {"changed": False, "failed": False, "ansible_facts": {"color": "blue"}}
    assert outcome.vars == {"web1": {"color": "blue", "registered": outcome.result}}
    assert worker.host_runtime("web1").vars["color"] == "blue"  # applied by its own worker at once
    assert not (outcome.facts or outcome.include_vars or outcome.added_hosts or outcome.meta)


def test_a_loop_gathers_its_items_effects_once(worker: PlaybookWorker) -> None:
    outcome = run(worker, "items")
    assert outcome.vars == {"web1": {"one": 1, "two": 1}}
    assert [item["_status"] for item in outcome.result["results"]] == ["ok", "ok"]
    assert not any(key.startswith("_") for key in outcome.result)


def test_inventory_changes_meta_and_includes_are_typed(worker: PlaybookWorker) -> None:
    assert run(worker, "newcomer").added_hosts == [AddedHost("db1", ("db",), {})]
    assert "db1" in [host.name for host in worker.inventory.get_hosts("db")]
    assert run(worker, "grouped").joined_groups == [JoinedGroup("tier_front", "web1", ("all",))]
    assert run(worker, "ending").meta == "end_host"
    include = run(worker, "included").include
    assert include is not None and include.kind == "include_tasks"
    assert [entry.target for entry in include.entries] == ["other.yml"]


def test_no_log_censors_the_result_and_callbacks_get_the_status_keys(worker: PlaybookWorker) -> None:
    outcome = run(worker, "secret")
    assert "msg" not in outcome.result and "censored" in outcome.result
    shown = outcome.shown()
    assert shown["_status"] == "ok" and "_duration" in shown and "_ignored" not in shown


def test_the_envelope_crosses_the_pipe_whole_and_a_plain_failure_becomes_one(worker: PlaybookWorker) -> None:
    outcome = run(worker, "newcomer")
    assert pickle.loads(pickle.dumps(outcome)) == outcome
    crashed = received({"failed": True, "msg": "internal error: KeyError: 'x'"})
    assert crashed.status == "failed" and crashed.failed and crashed.result["msg"].startswith("internal error")
