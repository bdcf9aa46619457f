"""Ansible 2.19's trust of set_fact values and registered controller results: a value a template made is data
(never rendered again), text written in the playbook stays a template's, and a controller action's registered
result keeps the trust of its values (a loop's items) rather than being marked as a host's."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_a_set_fact_value_a_template_made_is_not_rendered_again(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - set_fact:
                made: "{{ '{{ 1 + 1 }}' }}"
                written: bar
              register: result
            - name: show
              debug:
                msg: "{{ made }} {{ result.ansible_facts.made }}"
            - name: trust
              debug:
                msg: "{{ result.ansible_facts.written is ansible._protomatter.tagged_with('TrustedAsTemplate') }}
                  {{ made is ansible._protomatter.tagged_with('TrustedAsTemplate') }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("show") == {"h1": "{{ 1 + 1 }} {{ 1 + 1 }}"}
    assert run.msg("trust") == {"h1": "True False"}


def test_registered_items_of_a_controller_loop_stay_trusted_conditions(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - assert:
                that: "{{ item.that }}"
              loop:
                - that: 1 == 1
                  checks: [item is success]
              register: result
            - name: checked
              assert:
                that: "{{ item.item.checks }}"
              loop: "{{ result.results }}"
            - command: echo '1 == 1'
              register: from_host
            - name: refused
              assert:
                that: "{{ from_host.stdout }}"
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert "Encountered untrusted template or expression" in run.output


def test_a_controller_results_text_quoting_a_template_is_not_rendered_when_read(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - debug:
                msg: "{{ 5 / item }}"
              loop: [0, 1]
              ignore_errors: true
              register: result
            - name: read
              debug:
                msg: "{{ result.results[0].msg is search('division by zero') }} {{ result.results[1].msg }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("read") == {"h1": "True 5.0"}
