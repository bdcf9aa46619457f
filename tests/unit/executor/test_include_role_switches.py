"""import_role's and include_role's allow_duplicates, rolespec_validate and public given as templates, and a role
file omitted with ``{{ omit }}`` (runner/compiler/roles.py, runner/executor/playbook_worker.py), as ansible-core
reads them: the include's allow_duplicates (true unless given) replaces the role's own."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts


@pytest.fixture
def role(local_hosts: LocalHosts) -> None:
    """Role ``r``, whose meta allows duplicates, with a main and another tasks file and an argument spec."""
    base = local_hosts.base / "roles" / "r"
    for folder in ("tasks", "meta"):
        (base / folder).mkdir(parents=True)
    (base / "tasks" / "main.yml").write_text("- {name: in role, debug: {msg: main}}\n")
    (base / "tasks" / "other.yml").write_text("- {name: in role, debug: {msg: other}}\n")
    (base / "meta" / "main.yml").write_text("allow_duplicates: true\n")
    (base / "meta" / "argument_specs.yml").write_text(
        "argument_specs:\n  main:\n    options:\n      number: {type: int}\n"
    )


@pytest.mark.parametrize("keyword", ["import_role", "include_role"])
def test_allow_duplicates_false_leaves_out_a_role_already_run(
    local_hosts: LocalHosts, role: None, keyword: str
) -> None:
    run = local_hosts.play(f"""
        - hosts: h1
          gather_facts: false
          tasks:
            - {keyword}:
                name: r
                allow_duplicates: "{{{{ False | bool }}}}"
            - {keyword}:
                name: r
            - {keyword}:
                name: r
                allow_duplicates: false
        """)
    assert run.exit_code == 0, run.output
    assert len(run.tasks("r : in role")) == 2


def test_a_templated_rolespec_validate_and_an_omitted_tasks_from(local_hosts: LocalHosts, role: None) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - include_role:
                name: r
                tasks_from: "{{ omit }}"
                rolespec_validate: "{{ False | bool }}"
              vars:
                number: not a number
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("r : in role") == {"h1": "main"}


def test_a_templated_public_true_exposes_the_roles_defaults(local_hosts: LocalHosts, role: None) -> None:
    (local_hosts.base / "roles" / "r" / "defaults").mkdir()
    (local_hosts.base / "roles" / "r" / "defaults" / "main.yml").write_text("from_role: yes\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - include_role:
                name: r
                public: "{{ True | bool }}"
            - name: after
              debug:
                msg: "{{ from_role is defined }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("after") == {"h1": True}
