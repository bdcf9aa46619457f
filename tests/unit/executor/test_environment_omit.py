"""``environment`` (runner/executor/playbook_worker.py): a variable whose value is ``omit`` is not set, and an
omitted entry of the list adds nothing; facts are gathered with the play's environment, less what needs them; as
in Ansible."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_omitted_environment_variables_are_not_set(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: show
              shell: echo "here=$HERE; gone=${GONE-unset}; other=$OTHER"
              environment:
                - {GONE: "{{ omit }}", HERE: hello}
                - "{{ omit }}"
                - {OTHER: still}
        """)
    assert run.exit_code == 0, run.output
    assert run.task("show")["h1"]["stdout"] == "here=hello; gone=unset; other=still"


def test_facts_are_gathered_with_the_plays_environment_but_what_needs_them(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          environment:
            PATH: "{{ ansible_env.PATH }}:/extra"
            MARK: set
          tasks:
            - name: facts
              assert:
                that:
                  - ansible_env.MARK == 'set'
                  - "'/extra' not in ansible_env.PATH"
            - name: later tasks
              shell: echo "$PATH"
        """)
    assert run.exit_code == 0, run.output
    assert run.task("later tasks")["h1"]["stdout"].endswith(":/extra")
