"""``invocation`` in module results (runner/executor/module_call.py): ansible-core 2.21 adds the module's arguments
only when ``inject_invocation`` (``ANSIBLE_INJECT_INVOCATION``) or a task's ``ansible_inject_invocation`` asks for
it, a ``no_log`` argument's value in its words; 2.19 always did."""

from __future__ import annotations

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.unit.executor.conftest import LocalHosts

# A module of the playbook's library/ written against Ansible's API (whose AnsibleModule reports invocation)
API_MODULE = """
from ansible.module_utils.basic import AnsibleModule

module = AnsibleModule(argument_spec={"word": {"type": "str"}})
module.exit_json(word=module.params["word"])
"""

TASKS = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: stat
      stat: {path: /}
      loop: [true, false]
      vars: {ansible_inject_invocation: "{{ item }}"}
    - name: secret
      subversion: {repo: "file:///nonexistent", dest: /nonexistent, password: s3cret-value}
      vars: {ansible_inject_invocation: true}
      ignore_errors: true
    - name: configured
      stat: {path: /}
"""


def test_invocation_is_in_results_only_when_asked_for(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    asked, not_asked = run.task("stat")["h1"]["results"]
    assert asked["invocation"] == {"module_args": {"path": "/"}} and "invocation" not in not_asked
    secret = run.task("secret")["h1"]["invocation"]["module_args"]
    assert secret["password"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER" and "s3cret-value" not in run.output
    assert "invocation" not in run.task("configured")["h1"]


def test_the_configuration_asks_for_every_task(local_hosts: LocalHosts, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANSIBLE_INJECT_INVOCATION", "1")
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert run.task("configured")["h1"]["invocation"] == {"module_args": {"path": "/"}}


def test_a_modules_own_invocation_is_dropped_unless_asked_for(local_hosts: LocalHosts) -> None:
    ensure_ansible_core_importable()
    (local_hosts.base / "library").mkdir()
    (local_hosts.base / "library" / "say.py").write_text(API_MODULE)
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - {name: plain, say: {word: hi}}
            - {name: asked, say: {word: hi}, vars: {ansible_inject_invocation: true}}
        """)
    assert run.exit_code == 0, run.output
    assert "invocation" not in run.task("plain")["h1"]
    assert run.task("asked")["h1"]["invocation"]["module_args"]["word"] == "hi"


def test_copys_content_is_a_no_log_argument_in_invocation_only(local_hosts: LocalHosts) -> None:
    # As ansible-core 2.21's copy action: content is masked in invocation, and only there (its diff keeps it).
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: write
              copy: {content: "plain words\\n", dest: "{{ workdir }}/out.txt"}
              loop: [true, false]
              vars: {ansible_inject_invocation: "{{ item }}"}
              diff: true
        """)
    assert run.exit_code == 0, run.output
    asked, not_asked = run.task("write")["h1"]["results"]
    assert asked["invocation"]["module_args"]["content"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    assert asked["invocation"]["module_args"]["dest"].endswith("out.txt") and "invocation" not in not_asked
    assert "+plain words" in run.output
