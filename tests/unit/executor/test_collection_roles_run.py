"""A collection's roles when they run: found in the ``collections`` folder beside the playbook, shown under their
full names, with ansible-core's role variables; a ``with_first_found`` loop of include_vars looks in the role's
``vars/`` folder."""

from __future__ import annotations

from pathlib import Path

from tests.unit.executor.conftest import LocalHosts


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_a_collection_role_beside_the_playbook_runs_under_its_full_name(local_hosts: LocalHosts) -> None:
    role = local_hosts.base / "collections" / "ansible_collections" / "demo" / "tools" / "roles" / "web"
    write(role / "vars" / "Debian.yml", "flavour: debian\n")
    write(role / "tasks" / "main.yml", """\
- name: os vars
  include_vars:
    file: "{{ item }}"
    name: os_vars
  with_first_found:
    - files: [Other.yml, Debian.yml]
      skip: true
- name: names
  debug:
    msg: "{{ role_name }} {{ ansible_role_name }} {{ ansible_collection_name }} {{ os_vars.flavour }}"
""")
    run = local_hosts.play("""\
        - hosts: h1
          gather_facts: false
          collections: [demo.tools]
          roles: [web]
        """)
    assert run.exit_code == 0, run.output
    assert "TASK [demo.tools.web : names]" in run.output
    assert run.task("demo.tools.web : names")["h1"]["msg"] == "web demo.tools.web demo.tools debian"


def test_include_role_in_an_imported_playbook_finds_the_role_beside_that_playbook(local_hosts: LocalHosts) -> None:
    other = local_hosts.base / "other"
    write(other / "roles" / "near" / "tasks" / "main.yml", "- name: near\n  debug: msg=near\n")
    write(other / "inner.yml", "- hosts: h1\n  gather_facts: false\n  tasks:\n"
                               "    - include_role: {name: near}\n")
    run = local_hosts.play("""\
        - import_playbook: other/inner.yml
        - hosts: h1
          gather_facts: false
          tasks:
            - debug: msg=after
        """)
    assert run.exit_code == 0, run.output
    assert run.task("near : near")["h1"]["msg"] == "near"
