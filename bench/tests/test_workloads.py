"""The workload and the generated compile benchmark are what the numbers claim they are."""

from pathlib import Path

from compile import write_project
from report import TASK_EXECUTIONS_PER_HOST
from ruamel.yaml import YAML
from runners import WORKLOAD, WORKLOAD_PYINFRA

_yaml = YAML(typ="safe", pure=True)


def _leaf_tasks(tasks: list[dict]) -> list[dict]:
    leaves = []
    for task in tasks:
        if "block" in task:
            leaves += _leaf_tasks(task["block"]) + _leaf_tasks(task.get("rescue", []))
        else:
            leaves.append(task)
    return leaves


def test_workload_has_the_task_executions_the_report_divides_by() -> None:
    (play,) = _yaml.load(WORKLOAD.read_text())
    executions = sum(len(task.get("loop", [None])) for task in play["tasks"])
    assert executions == TASK_EXECUTIONS_PER_HOST
    assert play["hosts"] == "testhosts"


def test_pyinfra_deploy_names_the_same_operations_as_the_playbook() -> None:
    (play,) = _yaml.load(WORKLOAD.read_text())
    deploy = WORKLOAD_PYINFRA.read_text()
    for task in play["tasks"]:
        if task["name"] != "Stat the file":  # a fact in pyinfra, not a named operation
            assert f'name="{task["name"]}"' in deploy


def test_compile_project_has_the_requested_number_of_tasks(tmp_path: Path) -> None:
    playbook = write_project(tmp_path, 1000)
    (play,) = _yaml.load(playbook.read_text())
    count = len(_leaf_tasks(play["tasks"]))
    for role in play["roles"]:
        count += len(_leaf_tasks(_yaml.load((tmp_path / "roles" / role / "tasks/main.yml").read_text())))
        (dependency,) = _yaml.load((tmp_path / "roles" / role / "meta/main.yml").read_text())["dependencies"]
    # the dependency role is shared by every role and runs once per play
    count += len(_leaf_tasks(_yaml.load((tmp_path / "roles" / dependency["role"] / "tasks/main.yml").read_text())))
    assert count == 1000


def test_marginal_playbooks_run_the_module_asked_for(tmp_path: Path) -> None:
    from marginal import task_playbook

    for module, key in (("echo", "command"), ("ping", "ping"), ("layer-ping", "ansible_ping")):
        (play,) = _yaml.load(task_playbook(tmp_path, 3, module).read_text())
        assert [list(task)[1] for task in play["tasks"]] == [key] * 3
