"""Connection plugins written against Ansible's Python API (a ``connection_plugins/`` folder beside the playbook):
``raw`` runs through the plugin's ``exec_command``, one plugin instance per host for the run, with ansible-core's
become plugin set when the task becomes; a module over such a connection is unreachable, saying why; a plugin
that cannot be created fails its task with its own message."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

pytestmark = pytest.mark.usefixtures("ansible_core")

ECHO_PLUGIN = '''
from ansible.plugins.connection import ConnectionBase


class Connection(ConnectionBase):
    transport = "echo"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0

    def _connect(self):
        return self

    def exec_command(self, cmd, in_data=None, sudoable=True):
        self.calls += 1
        become = self.become.name if self.become else None
        return 0, cmd.encode(), f"call {self.calls}, become {become}".encode()

    def put_file(self, in_path, out_path):
        raise NotImplementedError

    def fetch_file(self, in_path, out_path):
        raise NotImplementedError

    def close(self):
        pass
'''

BROKEN_PLUGIN = '''
from ansible.errors import AnsibleError
from ansible.plugins.connection import ConnectionBase


class Connection(ConnectionBase):
    transport = "broken"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        raise AnsibleError("cannot reach {{ the moon }}")

    def _connect(self):
        return self

    def exec_command(self, cmd, in_data=None, sudoable=True):
        raise NotImplementedError

    def put_file(self, in_path, out_path):
        raise NotImplementedError

    def fetch_file(self, in_path, out_path):
        raise NotImplementedError

    def close(self):
        pass
'''


def _plugins(local_hosts: LocalHosts) -> None:
    folder = local_hosts.base / "connection_plugins"
    folder.mkdir()
    (folder / "echo.py").write_text(ECHO_PLUGIN)
    (folder / "broken.py").write_text(BROKEN_PLUGIN)


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


def test_a_module_over_a_plugin_connection_is_unreachable_saying_why(local_hosts: LocalHosts) -> None:
    _plugins(local_hosts)
    local_hosts.add("p1", ansible_connection="echo")
    run = local_hosts.play("""
        - hosts: p1
          gather_facts: false
          tasks:
            - name: ping
              ping:
        """)
    assert run.exit_code == 4, run.output
    assert "connection plugin 'echo' can run raw commands only" in run.task("ping")["p1"]["msg"]


def test_a_plugin_that_cannot_be_created_fails_the_task_with_its_message(local_hosts: LocalHosts) -> None:
    _plugins(local_hosts)
    local_hosts.add("p1", ansible_connection="broken")
    run = local_hosts.play("""
        - hosts: p1
          gather_facts: false
          tasks:
            - name: broken
              command: /bin/true
        """)
    assert run.exit_code == 2, run.output
    result = run.task("broken")["p1"]
    assert result["failed"] is True and not result.get("unreachable")
    assert result["msg"] == "cannot reach {{ the moon }}"


def test_an_unknown_connection_type_is_unreachable(local_hosts: LocalHosts) -> None:
    local_hosts.add("p1", ansible_connection="nosuch_transport")
    run = local_hosts.play("""
        - hosts: p1
          gather_facts: false
          tasks:
            - name: ping
              ping:
        """)
    assert run.exit_code == 4, run.output
    assert "unknown connection type 'nosuch_transport'" in run.task("ping")["p1"]["msg"]
