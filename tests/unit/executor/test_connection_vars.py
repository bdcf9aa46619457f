"""Which connection variables a task sees and the settings made of them, without connecting: a compiled plan, a
real inventory and a playbook worker, as a run has them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.actions.run_state import AddedHost
from runner.compiler import Compiler
from runner.connection import ConnectionSettings
from runner.executor.connection_vars import BadConnectionVariable, SettingsCache
from runner.executor.playbook_worker import PlaybookWorker, RunOptions
from runner.executor.variables import task_variables
from runner.inventory.sources import load_inventory
from runner.plan import PlanTask

PLAYBOOK = """\
- hosts: web
  gather_facts: false
  vars:
    ansible_user: play
  tasks:
    - block:
        - block:
            - name: inner
              command: hostname
          vars:
            ansible_port: 2202
      vars:
        ansible_port: 2201
        ansible_user: block
    - name: plain
      command: hostname
"""


@pytest.fixture
def worker(tmp_path: Path) -> PlaybookWorker:
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    (tmp_path / "hosts.ini").write_text(
        "[web]\nweb1 ansible_host=10.0.0.1 ansible_user=inventory provisioning_user=twin\n")
    plan = Compiler().compile_playbooks([tmp_path / "site.yml"])
    inventory = load_inventory([tmp_path / "hosts.ini"], playbook_dir=tmp_path)
    options = RunOptions(defaults=ConnectionSettings(name="-", address="-"), extra_vars={"unrelated": 1})
    return PlaybookWorker(plan, inventory, options)


def node(worker: PlaybookWorker, name: str) -> PlanTask:
    return next(task for task in worker.plan.tasks if task.name == name)


def values(worker: PlaybookWorker, name: str, include_params: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the task sees, sent as the controller sends it: with the play's scopes and the include's params."""
    payload = {"play_scopes": worker.plan.plays[0].scopes, "vars": include_params or {}}
    return dict(worker.connection_sources.values(worker, "web1", node(worker, name), payload))


def test_an_inner_block_wins_over_its_outer_block_and_the_play(worker: PlaybookWorker) -> None:
    assert values(worker, "inner") == {"ansible_host": "10.0.0.1", "ansible_user": "block", "ansible_port": 2202}
    assert values(worker, "plain") == {"ansible_host": "10.0.0.1", "ansible_user": "play"}


def test_a_higher_level_wins_under_any_name_of_the_setting(worker: PlaybookWorker) -> None:
    # The inventory's provisioning_user would win over its own ansible_user, not over the play's.
    assert values(worker, "plain") == {"ansible_host": "10.0.0.1", "ansible_user": "play"}
    settings = SettingsCache().get("web1", values(worker, "plain"), worker.options.defaults, dict)
    assert (settings.address, settings.user) == ("10.0.0.1", "play")


def test_set_fact_and_include_vars_values_are_seen_at_their_levels(worker: PlaybookWorker) -> None:
    worker.update({"include_vars": {"web1": {"ansible_user": "included", "ansible_host": "10.0.0.2"}}})
    assert values(worker, "plain") == {"ansible_host": "10.0.0.2", "ansible_user": "included"}  # over play vars
    worker.update({"vars": {"web1": {"ansible_user": "fact"}}})
    assert values(worker, "inner")["ansible_user"] == "fact"  # set_fact wins over block vars
    assert values(worker, "inner", {"ansible_user": "param"})["ansible_user"] == "param"


def test_add_host_changes_what_the_inventory_says(worker: PlaybookWorker) -> None:
    assert values(worker, "plain")["ansible_host"] == "10.0.0.1"
    worker.update({"add_host": [AddedHost("web1", vars={"ansible_host": "10.0.0.9"})]})
    assert values(worker, "plain")["ansible_host"] == "10.0.0.9"


def test_settings_are_built_once_per_values_and_rendered_when_templated() -> None:
    cache = SettingsCache()
    base = ConnectionSettings(name="-", address="-", port=22)
    renders: list[dict[str, Any]] = []

    def render(raw: Any) -> dict[str, Any]:
        renders.append(dict(raw))
        return {key: "10.0.0.7" for key in raw}

    first = cache.get("web1", {"ansible_host": "10.0.0.1"}, base, render)
    assert first is cache.get("web1", {"ansible_host": "10.0.0.1"}, base, render)
    assert cache.get("web1", {"ansible_host": "10.0.0.2"}, base, render).address == "10.0.0.2"
    templated = cache.get("web1", {"ansible_host": "{{ address }}"}, base, render)
    assert templated.address == "10.0.0.7" and renders == [{"ansible_host": "{{ address }}"}]
    cache.get("web1", {"ansible_host": "{{ address }}"}, base, render)
    assert len(renders) == 2  # rendered for every task: what it renders to may change


def test_a_value_that_cannot_be_used_names_the_host_and_the_problem() -> None:
    with pytest.raises(BadConnectionVariable,
                       match=r"connection variables of web1 .* ansible_port must be a port number from 1 to 65535"):
        SettingsCache().get("web1", {"ansible_port": "x"}, ConnectionSettings(name="-", address="-"), dict)



def test_a_task_sees_the_connection_it_runs_over_where_nothing_names_it(worker: PlaybookWorker) -> None:
    payload = {"play_scopes": worker.plan.plays[0].scopes}
    seen = task_variables(worker, "web1", node(worker, "plain"), payload)
    # ssh by default, as Ansible's play context defines it; the inventory's ansible_host wins over the default
    assert seen["ansible_connection"] == "ssh" and seen["ansible_host"] == "10.0.0.1"
    assert "ansible_connection" not in seen["hostvars"]["web1"]  # hostvars show only what was set, as Ansible's
    worker.host_runtime("web1").set_vars({"ansible_connection": "local"})
    assert task_variables(worker, "web1", node(worker, "plain"), payload)["ansible_connection"] == "local"
