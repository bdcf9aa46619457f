"""ansible-core 2.19's serialization profiles of Ansible-API modules (runner/ansible_api/profiles.py) and their
deprecations in ansible-core's form: a module's METADATA ``serialization_profile: modern`` (read when
``_ANSIBLE_MODULE_METADATA`` is on) gets YAML's dates as dates and returns them as such, the legacy profile as ISO
8601 text; ``module.deprecate`` reaches the result as ``{msg, collection_name, version | date, deprecator}``."""

from __future__ import annotations

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable
from tests.unit.executor.conftest import LocalHosts

ECHO = """
METADATA = '''
schema_version: 1
serialization_profile: {profile}
'''

from ansible.module_utils.basic import AnsibleModule

module = AnsibleModule(argument_spec={{"data": {{"type": "raw"}}}})
module.deprecate("Old option.", version="9.9", collection_name="ns.col")
module.deprecate("Dated.", date="2034-01-02")
module.exit_json(data=module.params["data"])
"""

TASKS = """
- hosts: h1
  gather_facts: false
  vars:
    data: {day: 2024-01-02, at: 2024-01-02T03:04:05, time: "{{ data.at.time() }}", word: hi}
  tasks:
    - name: modern
      echo_modern: {data: "{{ data }}"}
      register: modern
    - name: legacy
      echo_legacy: {data: "{{ data }}"}
      register: legacy
    - name: types
      debug:
        msg: "{{ [modern, legacy] | map(attribute='data') | map('dict2items') | map('map', attribute='value')
                 | map('map', 'type_debug') | map('list') | list }}"
"""


@pytest.fixture
def echo_modules(local_hosts: LocalHosts) -> LocalHosts:
    ensure_ansible_core_importable()
    (local_hosts.base / "library").mkdir()
    for profile in ("modern", "legacy"):
        (local_hosts.base / "library" / f"echo_{profile}.py").write_text(ECHO.format(profile=profile))
    return local_hosts


def test_a_modules_profile_decides_the_types_of_its_arguments_and_results(
    echo_modules: LocalHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("_ANSIBLE_MODULE_METADATA", "1")
    run = echo_modules.play(TASKS)
    assert run.exit_code == 0, run.output
    assert run.task("types")["h1"]["msg"] == [["date", "datetime", "time", "str"], ["str", "str", "str", "str"]]
    assert run.task("legacy")["h1"]["data"]["at"] == "2024-01-02T03:04:05"


def test_without_module_metadata_every_module_is_legacy(echo_modules: LocalHosts) -> None:
    run = echo_modules.play(TASKS)
    assert run.exit_code == 0, run.output
    assert run.task("types")["h1"]["msg"] == [["str", "str", "str", "str"]] * 2


def test_a_modules_deprecations_are_in_ansible_cores_form(echo_modules: LocalHosts) -> None:
    run = echo_modules.play(TASKS)
    assert run.exit_code == 0, run.output
    versioned, dated = run.task("legacy")["h1"]["deprecations"]
    assert versioned == {
        "msg": "Old option.",
        "collection_name": "ns.col",
        "version": "9.9",
        "deprecator": {"resolved_name": "ns.col", "type": None},
    }
    assert dated["date"] == "2034-01-02" and "version" not in dated
    assert (
        "[DEPRECATION WARNING]: Old option. This feature will be removed from collection 'ns.col' version 9.9."
        in run.output
    )


NOISY_ACTION = """
from ansible.module_utils.common.warnings import deprecate
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        deprecate("Passes a version.", version="9.9", collection_name="bla.bla")
        deprecate("Passes nothing.")
        return result
"""


def test_an_action_plugins_deprecations_are_captured_into_its_result(
    local_hosts: LocalHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    ensure_ansible_core_importable()
    collection = local_hosts.base / "collections" / "ansible_collections" / "foo" / "bar"
    (collection / "plugins" / "action").mkdir(parents=True)
    (collection / "plugins" / "action" / "noisy_action.py").write_text(NOISY_ACTION)
    monkeypatch.setenv("ANSIBLE_COLLECTIONS_PATH", str(local_hosts.base / "collections"))
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: noisy
              foo.bar.noisy_action:
        """)
    assert run.exit_code == 0, run.output
    versioned, anonymous = run.task("noisy")["h1"]["deprecations"]
    assert versioned == {
        "msg": "Passes a version.",
        "collection_name": "bla.bla",
        "version": "9.9",
        "deprecator": {"resolved_name": "bla.bla", "type": None},
    }
    assert anonymous["deprecator"] == {"resolved_name": "foo.bar.noisy_action", "type": "action"}
    assert (
        "Passes nothing. This feature will be removed from action plugin 'noisy_action' in collection "
        "'foo.bar' in a future release."
    ) in run.output.replace("\n", " ")
