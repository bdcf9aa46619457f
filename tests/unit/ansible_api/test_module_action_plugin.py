"""A module's routing entry ``action_plugin: NS.COLL.X`` (meta/runtime.yml): the action plugin that runs the
module, where the action plugins' routing leads it; and ``module_defaults`` of a collection's actions matched by
what a key and a task each resolve to, as ansible-core's task executor and playbook loader resolve them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.module_index import ModuleIndex

RUNTIME = """\
plugin_routing:
  action:
    uses_action_defaults: {redirect: ns.coll.eos}
    ios_facts: {redirect: ns.coll.nope}
    renamed_action: {redirect: ns.coll.ios}
  modules:
    uses_action_defaults: {redirect: ns.coll.module}
    eosfacts: {action_plugin: ns.coll.eos}
    iosfacts: {redirect: ns.coll.ios_facts}
    ios_facts: {action_plugin: ns.coll.renamed_action}
    lost: {action_plugin: ns.coll.missing}
"""
MODULE = """\
from ansible.module_utils.basic import AnsibleModule

AnsibleModule(argument_spec={"option": {"type": "raw"}}).exit_json()
"""
ACTION = """\
from ansible.plugins.action.normal import ActionModule as ActionBase


class ActionModule(ActionBase):
    pass
"""


@pytest.fixture
def collections(tmp_path: Path) -> Path:
    root = tmp_path / "collections"
    collection = root / "ansible_collections" / "ns" / "coll"
    for folder in ("meta", "plugins/modules", "plugins/action"):
        (collection / folder).mkdir(parents=True)
    (collection / "meta" / "runtime.yml").write_text(RUNTIME)
    for name in ("module", "eosfacts", "ios_facts", "lost"):
        (collection / "plugins" / "modules" / f"{name}.py").write_text(MODULE)
    for name in ("eos", "ios"):
        (collection / "plugins" / "action" / f"{name}.py").write_text(ACTION)
    return root


def action_of(index: ModuleIndex, name: str) -> str | None:
    info = index.get(name)
    return info.action_plugin.stem if info.action_plugin is not None else None


def test_a_modules_routing_names_the_action_plugin_that_runs_it(collections: Path) -> None:
    index = ModuleIndex(collections_paths=[collections])
    assert action_of(index, "ns.coll.eosfacts") == "eos"
    assert action_of(index, "ns.coll.ios_facts") == "ios"  # the named plugin's own routing is followed
    assert action_of(index, "ns.coll.iosfacts") == "ios"  # through the module's redirect
    # a module redirected to one without an action plugin runs under the action plugin its name is routed to
    info = index.get("ns.coll.uses_action_defaults")
    assert (info.name, info.path.stem, action_of(index, info.name)) == ("ns.coll.uses_action_defaults", "module", "eos")
    assert action_of(index, "ns.coll.module") is None
    with pytest.raises(UserError, match=re.escape("the handler 'ns.coll.missing' of the module 'ns.coll.lost'")):
        index.get("ns.coll.lost")


def test_module_defaults_keys_and_tasks_match_by_what_each_resolves_to(collections: Path) -> None:
    index = ModuleIndex(collections_paths=[collections])
    assert index.defaults_name("ns.coll.eosfacts") == "ns.coll.eosfacts"  # not its action plugin's
    assert index.defaults_name("ns.coll.eos") == "ns.coll.eos"
    assert index.defaults_name("ns.coll.iosfacts") == "ns.coll.ios_facts"
    assert index.defaults_name("ns.coll.uses_action_defaults") == "ns.coll.eos"
    assert index.defaults_name("ns.coll.module") == "ns.coll.module"


def compiled_option(collections: Path, tmp_path: Path, defaults: str, task: str) -> Any:
    playbook = tmp_path / "site.yml"
    playbook.write_text(f"""\
- hosts: all
  gather_facts: false
  collections: [ns.coll]
  module_defaults: {{{defaults}: {{option: set}}}}
  tasks:
    - {task}:
""")
    plan = Compiler(CompileOptions(collections_path=[collections])).compile_playbooks([playbook])
    return next(node.args.get("option") for node in plan.tasks if node.module)


@pytest.mark.usefixtures("ansible_core")
@pytest.mark.parametrize(
    ("defaults", "task", "applies"),
    [
        ("ns.coll.eos", "ns.coll.eosfacts", False),
        ("ns.coll.eosfacts", "eosfacts", True),
        ("ns.coll.iosfacts", "ios_facts", True),
        ("ns.coll.ios_facts", "iosfacts", True),
        ("ns.coll.ios", "ios_facts", False),
        ("ns.coll.eos", "ns.coll.uses_action_defaults", True),
        ("ns.coll.uses_action_defaults", "ns.coll.uses_action_defaults", True),
        ("ns.coll.module", "ns.coll.uses_action_defaults", False),
    ],
)
def test_a_collection_tasks_module_defaults(
    collections: Path, tmp_path: Path, defaults: str, task: str, applies: bool
) -> None:
    assert compiled_option(collections, tmp_path, defaults, task) == ("set" if applies else None)
