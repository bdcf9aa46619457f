"""Action groups of runtime.yml files for ``module_defaults: {group/...}``: the demo collection's groups (one
extending another, and one of a collection that is not installed), ansible-core's own, and the defaults a task
gets from them when the playbook compiles."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.ansible_api.action_groups import group_actions
from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError

COLLECTIONS = Path(__file__).resolve().parents[2] / "data" / "collections"


def test_a_group_holds_its_actions_and_those_of_the_groups_it_extends() -> None:
    assert group_actions("demo.tools.frobs", [COLLECTIONS]) == {"demo.tools.frob", "ansible.builtin.debug"}
    assert group_actions("demo.tools.printers", [COLLECTIONS]) == {"ansible.builtin.debug"}
    assert group_actions("demo.tools.more_printers", [COLLECTIONS]) == {"ansible.builtin.debug"}


def test_a_short_group_name_in_extend_group_is_ansible_cores_group(tmp_path: Path) -> None:
    runtime = tmp_path / "ansible_collections" / "demo" / "grouped" / "meta" / "runtime.yml"
    runtime.parent.mkdir(parents=True)
    runtime.write_text("action_groups:\n  mine:\n    - metadata: {extend_group: [mine, other]}\n    - frob\n")
    assert group_actions("demo.grouped.mine", [tmp_path]) == {"demo.grouped.frob"}


@pytest.mark.parametrize("group", ["demo.tools.nothing", "absent.collection.group"])
def test_a_group_that_cannot_be_found_is_an_error(group: str) -> None:
    with pytest.raises(UserError, match=f"could not resolve the module_defaults group {group}"):
        group_actions(group, [COLLECTIONS])


@pytest.mark.usefixtures("ansible_core")
def test_ansible_cores_groups_extend_the_collections_groups() -> None:
    assert group_actions("docker", [COLLECTIONS]) == set()  # its collections are not installed: an empty group


def compiled_args(tmp_path: Path, text: str) -> list[dict[str, Any]]:
    playbook = tmp_path / "site.yml"
    playbook.write_text(text)
    plan = Compiler(CompileOptions(collections_path=[COLLECTIONS])).compile_playbooks([playbook])
    return [task.args for task in plan.tasks if task.module]


PLAY = """\
- hosts: all
  gather_facts: false
  module_defaults:
    group/demo.tools.frobs: {msg: from the group}
  tasks:
"""


def test_a_groups_defaults_apply_to_its_actions_and_an_actions_own_come_over_them(tmp_path: Path) -> None:
    tasks = """\
    - debug:
    - debug: {msg: own}
    - module_defaults:
        ansible.builtin.debug: {msg: from the action}
      block:
        - debug:
    - command: echo
"""
    args = compiled_args(tmp_path, PLAY + tasks)
    assert [task.get("msg") for task in args] == ["from the group", "own", "from the action", None]


@pytest.mark.usefixtures("ansible_core")
def test_a_task_routed_to_a_groups_action_gets_the_groups_defaults(tmp_path: Path) -> None:
    text = PLAY.replace("{msg: from the group}", "{name: grouped}") + "    - demo.tools.old_frob:\n"
    assert compiled_args(tmp_path, text) == [{"name": "grouped"}]


def test_an_unknown_group_is_a_compile_error_at_the_task(tmp_path: Path) -> None:
    playbook = tmp_path / "site.yml"
    playbook.write_text(PLAY.replace("frobs", "nothing") + "    - debug:\n")
    with pytest.raises(UserError) as caught:
        Compiler(CompileOptions(collections_path=[COLLECTIONS])).compile_playbooks([playbook])
    assert f"{playbook}:6:7: could not resolve the module_defaults group demo.tools.nothing" in caught.value.render()


LOCAL_DEBUG = """\
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        return {"msg": self._task.args.get("msg", "local")}
"""


def test_an_inner_levels_defaults_replace_the_outer_ones_and_builtin_defaults_skip_a_local_action(
        tmp_path: Path) -> None:
    tasks = """\
    - module_defaults:
        debug: {msg: outer}
      block:
        - debug:
        - module_defaults:
            debug: {}
          block:
            - debug:
    - module_defaults:
        ansible.builtin.debug: {msg: builtin}
      block:
        - ansible.legacy.debug:
        - ansible.builtin.debug:
    - module_defaults:
        ansible.legacy.debug: {msg: legacy}
      block:
        - ansible.builtin.debug:
"""
    # the play's group (which lists ansible.builtin.debug) is what is left once an inner level empties debug's
    assert [task.get("msg") for task in compiled_args(tmp_path, PLAY + tasks)] == [
        "outer", "from the group", "builtin", "builtin", "legacy"]
    (tmp_path / "action_plugins").mkdir()
    (tmp_path / "action_plugins" / "debug.py").write_text(LOCAL_DEBUG)
    # with a local debug action, ansible.legacy.debug and a short name are it, not ansible.builtin.debug: neither
    # the group's nor ansible.builtin.debug's defaults reach them
    assert [task.get("msg") for task in compiled_args(tmp_path, PLAY + tasks)] == [
        "outer", None, None, "builtin", "legacy"]


@pytest.mark.parametrize(("item", "problem"), [
    ("{unexpected_key: {key: value}, metadata: {extend_group: frobs}}",
     "The only expected key is metadata, but got keys: metadata, unexpected_key"),
    ("[]", "The metadata is not a dictionary. Got []"),
    ("{unexpected_key: frobs}", "The metadata contains unexpected keys: unexpected_key"),
    ("{extend_group: {name: frobs}}",
     "The metadata contains unexpected key types: extend_group is {'name': 'frobs'} (expected type list)"),
])
def test_a_groups_metadata_not_as_expected_is_warned_of_in_ansible_cores_words(tmp_path: Path, item: str,
                                                                              problem: str) -> None:
    runtime = tmp_path / "ansible_collections" / "demo" / "grouped" / "meta" / "runtime.yml"
    runtime.parent.mkdir(parents=True)
    item = item if item.startswith("{unexpected_key: {") else "{metadata: " + item + "}"
    runtime.write_text(f"action_groups:\n  mine:\n    - {item}\n    - frob\n")
    warnings: list[str] = []
    assert group_actions("demo.grouped.mine", [tmp_path], warnings.append) == {"demo.grouped.frob"}
    assert warnings == ["Invalid metadata was found for action_group demo.grouped.mine while loading "
                        f"module_defaults. {problem}"]
    assert group_actions("demo.grouped.mine", [tmp_path]) == {"demo.grouped.frob"}  # unchecked: no warn given


def test_a_second_metadata_entry_is_warned_of_and_a_valid_one_is_not(tmp_path: Path) -> None:
    runtime = tmp_path / "ansible_collections" / "demo" / "grouped" / "meta" / "runtime.yml"
    runtime.parent.mkdir(parents=True)
    runtime.write_text("action_groups:\n  mine:\n    - metadata: {extend_group: other}\n    - frob\n"
                       "  twice:\n    - metadata: {}\n    - metadata: {extend_group: mine}\n")
    warnings: list[str] = []
    assert group_actions("demo.grouped.mine", [tmp_path], warnings.append) == {"demo.grouped.frob"}
    assert warnings == []
    assert group_actions("demo.grouped.twice", [tmp_path], warnings.append) == {"demo.grouped.frob"}
    assert warnings == ["Invalid metadata was found for action_group demo.grouped.twice while loading "
                        "module_defaults. The group contains multiple metadata entries."]


def test_gather_facts_takes_setups_defaults_under_its_own(tmp_path: Path) -> None:
    tasks = """\
    - module_defaults:
        setup: {gather_subset: [network], fact_path: /setup}
        gather_facts: {fact_path: /own}
      block:
        - gather_facts:
        - gather_facts: {fact_path: /task}
        - setup:
    - module_defaults:
        group/demo.tools.frobs: {}
        setup: {gather_subset: [min]}
      block:
        - debug: {msg: unaffected}
"""
    args = compiled_args(tmp_path, PLAY + tasks)
    assert args[:3] == [{"gather_subset": ["network"], "fact_path": "/own"},
                        {"gather_subset": ["network"], "fact_path": "/task"},
                        {"gather_subset": ["network"], "fact_path": "/setup"}]
    assert args[3] == {"msg": "unaffected"}
