"""The module_defaults of the modules chosen per host to do a task's work (``service``: systemd or sysvinit;
``package``: apt, dnf, ...): the compiler keeps each candidate's in the task's node, for the run to merge the
chosen one's (runner/executor/chosen_module.py), as ansible-core's service and package actions do."""

from __future__ import annotations

from pathlib import Path

from runner.compiler import CompileOptions, Compiler
from runner.plan import ARGUMENT_TEMPLATES, PlanTask


def compiled_tasks(tmp_path: Path, playbook: str) -> dict[str, PlanTask]:
    (tmp_path / "site.yml").write_text(playbook)
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    return {task.name: task for task in plan.tasks if task.name}


def test_each_candidates_defaults_are_kept_and_none_are_merged_ahead(tmp_path: Path) -> None:
    tasks = compiled_tasks(
        tmp_path,
        """
- hosts: all
  gather_facts: false
  module_defaults:
    systemd: {name: unit, enabled: true}
    ansible.builtin.sysvinit: "{{ sysv_defaults }}"
    service: {state: started}
    apt: {update_cache: true}
  tasks:
    - name: a service
      service:
    - name: a package
      package: {name: curl}
    - name: another module
      debug:
""",
    )
    service = tasks["a service"]
    assert service.args == {"state": "started"}  # its own defaults only: the chosen module's come where it runs
    assert service.chosen_defaults == {
        "systemd": {"name": "unit", "enabled": True},
        "sysvinit": {ARGUMENT_TEMPLATES: ["{{ sysv_defaults }}"]},
    }
    assert tasks["a package"].args == {"name": "curl"}
    assert tasks["a package"].chosen_defaults == {"apt": {"update_cache": True}}
    assert tasks["another module"].chosen_defaults == {}


def test_a_tasks_own_level_replaces_the_plays_for_a_candidate(tmp_path: Path) -> None:
    tasks = compiled_tasks(
        tmp_path,
        """
- hosts: all
  gather_facts: false
  module_defaults:
    systemd: {name: from-play}
  tasks:
    - name: its own
      service:
      module_defaults:
        systemd: {name: from-task}
""",
    )
    assert tasks["its own"].chosen_defaults == {"systemd": {"name": "from-task"}}
