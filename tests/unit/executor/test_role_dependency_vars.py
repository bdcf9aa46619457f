"""Variables along role dependencies (runner/compiler/roles.py), as Ansible has them: a dependency sees the vars
and parameters of the role that depends on it (its own win), and a role sees its dependencies' vars (its own
win), also when a dependency was already expanded for another role; an import in a role's handlers file is found
beside it and imports handlers."""

from __future__ import annotations

from pathlib import Path

from tests.unit.executor.conftest import LocalHosts


def _role(base: Path, name: str, files: dict[str, str]) -> None:
    for path, text in files.items():
        (base / "roles" / name / path).parent.mkdir(parents=True, exist_ok=True)
        (base / "roles" / name / path).write_text(text)


def test_dependency_chains_share_vars_and_params(local_hosts: LocalHosts) -> None:
    base = local_hosts.base
    _role(base, "parent_a", {"meta/main.yml": "dependencies: [{role: middle, vars: {which: A}}]\n"})
    _role(base, "parent_b", {"meta/main.yml": "dependencies: [{role: middle, vars: {which: B}}]\n"})
    _role(base, "middle", {"meta/main.yml": "dependencies: [{role: leaf, vars: {shown: '{{ which }}'}}]\n",
                           "vars/main.yml": "level: middle\n"})
    _role(base, "leaf", {"meta/main.yml": "allow_duplicates: true\ndependencies: [deepest]\n",
                         "tasks/main.yml": "- {name: show, debug: {msg: '{{ shown }} {{ level }}'}}\n"})
    _role(base, "deepest", {"vars/main.yml": "level: deepest\n"})
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          roles: [parent_a, parent_b]
        """)
    assert run.exit_code == 0, run.output
    assert [hosts["h1"]["msg"] for hosts in run.tasks("leaf : show")] == ["A deepest", "B deepest"]


def test_an_import_in_a_roles_handlers_is_found_beside_them(local_hosts: LocalHosts) -> None:
    base = local_hosts.base
    _role(base, "notifier", {"tasks/main.yml": "- {name: change, debug: {msg: x}, changed_when: true, "
                                               "notify: more}\n",
                             "handlers/main.yml": "- import_tasks: more_handlers.yml\n",
                             "handlers/more_handlers.yml": "- {name: more, debug: {msg: handled}}\n"})
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          roles: [notifier]
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("notifier : more") == ["h1"]
