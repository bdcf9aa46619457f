"""set_fact renders the names of the values it sets (the other task arguments keep their names as written)."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_set_fact_names_may_be_templates(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          vars:
            prefix: web
          tasks:
            - set_fact:
                "{{ prefix }}_port": 8080
            - name: show
              debug:
                msg: "{{ web_port }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("show") == {"h1": 8080}
