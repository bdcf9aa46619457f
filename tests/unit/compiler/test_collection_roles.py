"""Roles and playbooks of collections, found as ansible-core finds them: by their full name, through the
collection search list of the play, task or role naming them, and through the default collection of a
collection's playbook; a collection role's tasks search its own collection first."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.plan import Plan


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def collections(tmp_path: Path, ansible_core: None) -> Path:
    """A collections path holding demo.tools: roles ``web`` (depending on ``base`` by its short name), ``base``,
    ``sub/nested``, a module ``frob`` and playbooks ``site`` and ``more/extra``."""
    root = tmp_path / "colls"
    tools = root / "ansible_collections" / "demo" / "tools"
    write(tools / "galaxy.yml", "namespace: demo\nname: tools\nversion: 1.0.0\n")
    write(tools / "plugins" / "modules" / "frob.py", "from ansible.module_utils.basic import AnsibleModule\n")
    write(tools / "roles" / "web" / "meta" / "main.yml", "dependencies:\n  - base\n")
    write(tools / "roles" / "web" / "tasks" / "main.yml", "- frob:\n- debug: msg=web\n")
    write(tools / "roles" / "base" / "tasks" / "main.yml", "- debug: msg=base\n")
    write(tools / "roles" / "sub" / "nested" / "tasks" / "main.yml", "- debug: msg=nested\n")
    write(tools / "playbooks" / "site.yml", "- hosts: all\n  gather_facts: false\n  roles: [web]\n"
                                            "  tasks:\n    - frob:\n")
    write(tools / "playbooks" / "more" / "extra.yaml", "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                                       "    - debug: msg=extra\n")
    return root


def compile_text(tmp_path: Path, collections: Path, text: str) -> Plan:
    playbook = write(tmp_path / "site.yml", text)
    return Compiler(CompileOptions(collections_path=[collections])).compile_playbooks([playbook])


def roles_of(plan: Plan) -> list[tuple[str | None, str]]:
    return [(role.collection, role.name) for role in plan.roles]


def test_a_role_by_its_full_name_with_its_dependency_by_a_short_name(tmp_path: Path, collections: Path) -> None:
    plan = compile_text(tmp_path, collections, "- hosts: all\n  gather_facts: false\n"
                                               "  roles: [demo.tools.web]\n")
    assert roles_of(plan) == [("demo.tools", "base"), ("demo.tools", "web")]
    assert plan.roles[1].display_name == "demo.tools.web"
    # the role's short module name is its own collection's module
    assert [task.module for task in plan.tasks if task.role == 1] == ["demo.tools.frob", "debug"]


def test_a_role_in_a_subfolder_of_roles(tmp_path: Path, collections: Path) -> None:
    plan = compile_text(tmp_path, collections, "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                               "    - import_role: {name: demo.tools.sub.nested}\n")
    assert roles_of(plan) == [("demo.tools", "nested")]


def test_a_short_role_name_through_the_plays_and_the_tasks_collections(tmp_path: Path, collections: Path) -> None:
    write(tmp_path / "roles" / "base" / "tasks" / "main.yml", "- debug: msg=mine\n")
    plan = compile_text(tmp_path, collections,
                        "- hosts: all\n  gather_facts: false\n  collections: [demo.tools]\n  roles: [base]\n"
                        "- hosts: all\n  gather_facts: false\n  tasks:\n    - import_role: {name: base}\n"
                        "      collections: [demo.tools]\n    - import_role: {name: base}\n")
    # a collection of the search list comes before the roles/ folder beside the playbook, as in ansible-core
    assert roles_of(plan) == [("demo.tools", "base"), ("demo.tools", "base"), (None, "base")]


def test_a_role_the_search_list_does_not_find_says_where_it_looked(tmp_path: Path, collections: Path) -> None:
    with pytest.raises(UserError) as caught:
        compile_text(tmp_path, collections, "- hosts: all\n  gather_facts: false\n  collections: [demo.tools]\n"
                                            "  roles: [nothing]\n")
    assert f"The role 'nothing' was not found in: demo.tools:{tmp_path}/roles:" in caught.value.render()


def test_a_collection_playbook_imported_by_its_name_makes_its_collection_the_default(
        tmp_path: Path, collections: Path) -> None:
    plan = compile_text(tmp_path, collections, "- import_playbook: demo.tools.site\n"
                                               "- import_playbook: demo.tools.more.extra.yaml\n")
    assert roles_of(plan) == [("demo.tools", "base"), ("demo.tools", "web")]
    # the play's short module name goes through the playbook's collection first
    assert [task.module for task in plan.tasks if task.role is None] == ["demo.tools.frob", "debug"]


def test_a_collection_playbook_named_by_its_path_has_its_collection_as_default(collections: Path) -> None:
    site = collections / "ansible_collections" / "demo" / "tools" / "playbooks" / "site.yml"
    plan = Compiler(CompileOptions(collections_path=[collections])).compile_playbooks([site])
    assert [task.module for task in plan.tasks if task.role is None] == ["demo.tools.frob"]


def test_a_playbook_outside_any_collection_has_no_default_collection(tmp_path: Path, collections: Path) -> None:
    with pytest.raises(UserError) as caught:
        compile_text(tmp_path, collections, "- hosts: all\n  gather_facts: false\n  roles: [web]\n")
    assert "The role 'web' was not found" in caught.value.render()


def test_the_collection_search_lists_an_action_plugin_reads(tmp_path: Path, collections: Path) -> None:
    web_meta = collections / "ansible_collections" / "demo" / "tools" / "roles" / "web" / "meta" / "main.yml"
    web_meta.write_text("collections: [demo.other]\ndependencies: [base]\n")
    plan = compile_text(tmp_path, collections,
                        "- hosts: all\n  gather_facts: false\n  collections: [demo.extra]\n  roles: [demo.tools.web]\n"
                        "  tasks:\n    - debug: msg=play\n    - debug: msg=task\n      collections: ansible.builtin\n")
    lists = {task.args.get("msg"): task.collections for task in plan.tasks if task.module == "debug"}
    # a collection role: its own collection, its meta's, then ansible.builtin; never the play's
    assert lists["web"] == ["demo.tools", "demo.other", "ansible.builtin"]
    assert lists["base"] == ["demo.tools", "ansible.builtin"]
    assert lists["play"] == ["demo.extra", "ansible.legacy"]
    assert lists["task"] == ["ansible.builtin"]


def test_a_collection_roles_argument_specs_are_checked_under_its_own_name(tmp_path: Path, collections: Path) -> None:
    base = collections / "ansible_collections" / "demo" / "tools" / "roles" / "base"
    write(base / "meta" / "argument_specs.yml", "argument_specs:\n  main:\n    options:\n"
                                                "      port: {type: int, required: true}\n")
    plan = compile_text(tmp_path, collections, "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                               "    - import_role: {name: demo.tools.base}\n      vars: {port: 80}\n")
    [check] = [task for task in plan.tasks if task.module == "validate_argument_spec"]
    assert check.args["validate_args_context"] == {"type": "role", "name": "base", "argument_spec_name": "main",
                                                   "path": str(base.resolve())}


def test_include_role_looks_through_its_own_collections(tmp_path: Path, collections: Path) -> None:
    compiler = Compiler(CompileOptions(collections_path=[collections]))
    plan = compiler.compile_playbooks([write(tmp_path / "site.yml", "- hosts: all\n  gather_facts: false\n  tasks:\n"
                                             "    - include_role: {name: base}\n      collections: [demo.tools]\n")])
    [include] = [task for task in plan.tasks if task.kind == "include_role"]
    fragment = compiler.compile_include(include, "base")
    assert [(role.collection, role.name) for role in fragment.roles] == [("demo.tools", "base")]
