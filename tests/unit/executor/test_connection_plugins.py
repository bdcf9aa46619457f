"""Connection plugins written against Ansible's Python API (a ``connection_plugins/`` folder beside the playbook):
``raw`` runs through the plugin's ``exec_command``, one plugin instance per host for the run, with ansible-core's
become plugin set when the task becomes; a module over such a connection is unreachable, saying why; a plugin
that cannot be created fails its task with its own message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.executor.conftest import LocalHosts

pytestmark = pytest.mark.usefixtures("ansible_core")

# A connection plugin: ConnectionBase's abstract methods (without them ansible-core's loader finds no plugin)
# around a constructor and an exec_command of its own.
PLUGIN = '''
from ansible.errors import AnsibleError
from ansible.plugins.connection import ConnectionBase


class Connection(ConnectionBase):
    transport = "{name}"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        {init}

    def _connect(self):
        return self

    def exec_command(self, cmd, in_data=None, sudoable=True):
        {exec_command}

    def put_file(self, in_path, out_path):
        raise NotImplementedError

    def fetch_file(self, in_path, out_path):
        raise NotImplementedError

    def close(self):
        pass
'''
ECHO = {"init": "self.calls = 0",
        "exec_command": "self.calls += 1; become = self.become.name if self.become else None; "
                        "return 0, cmd.encode(), f'call {self.calls}, become {become}'.encode()"}
BROKEN = {"init": "raise AnsibleError('cannot reach {{ the moon }}')", "exec_command": "raise NotImplementedError"}


def _plugins(local_hosts: LocalHosts) -> None:
    folder = local_hosts.base / "connection_plugins"
    folder.mkdir()
    for name, body in (("echo", ECHO), ("broken", BROKEN)):
        (folder / f"{name}.py").write_text(PLUGIN.format(name=name, **body))


def test_raw_runs_through_the_plugin_with_its_become(local_hosts: LocalHosts) -> None:
    _plugins(local_hosts)
    local_hosts.add("p1", ansible_connection="echo")
    run = local_hosts.play("""
        - hosts: p1
          gather_facts: false
          tasks:
            - name: become
              raw: hello
              become: "{{ item }}"
              loop: [true, false]
            - name: again
              raw: "{{ item }}"
              loop: [one, two]
        """)
    assert run.exit_code == 0, run.output
    sudo, plain = run.task("become")["p1"]["results"]
    assert sudo["stderr"].endswith("become sudo")
    assert sudo["stdout"].startswith("sudo ") and sudo["stdout"].endswith("hello'")
    assert plain["stderr"].endswith("become None")
    assert plain["stdout"] == "hello"
    one, two = run.task("again")["p1"]["results"]
    assert (one["stdout"], two["stdout"]) == ("one", "two")
    calls = [int(result["stderr"].split(",")[0].removeprefix("call ")) for result in (one, two)]
    assert calls[1] == calls[0] + 1  # the host's one plugin instance, kept between tasks and items


def _one_task_on(local_hosts: LocalHosts, connection: str, task: str) -> dict[str, Any]:
    """Run one task on a new host ``p1`` reached through ``connection``: the run and p1's result."""
    _plugins(local_hosts)
    local_hosts.add("p1", ansible_connection=connection)
    run = local_hosts.play(f"""
        - hosts: p1
          gather_facts: false
          tasks:
            - name: the task
              {task}
        """)
    return {"exit_code": run.exit_code, "output": run.output, **run.task("the task")["p1"]}


@pytest.mark.parametrize(("connection", "message"), [
    ("echo", "connection plugin 'echo' can run raw commands only"),
    ("nosuch_transport", "unknown connection type 'nosuch_transport'"),
])
def test_a_module_over_a_plugin_or_unknown_connection_is_unreachable_saying_why(
        local_hosts: LocalHosts, connection: str, message: str) -> None:
    result = _one_task_on(local_hosts, connection, "ping:")
    assert result["exit_code"] == 4, result["output"]
    assert result["unreachable"] is True
    assert message in result["msg"]


def test_a_plugin_that_cannot_be_created_fails_the_task_with_its_message(local_hosts: LocalHosts) -> None:
    result = _one_task_on(local_hosts, "broken", "command: /bin/true")
    assert result["exit_code"] == 2, result["output"]
    assert result["failed"] is True and not result.get("unreachable")
    assert result["msg"] == "cannot reach {{ the moon }}"
