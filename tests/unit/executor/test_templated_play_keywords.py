"""Play and task keywords Ansible accepts as templates or in forms beyond a literal (ansible-core 2.19 runs the
same playbooks alike): ``strategy`` and ``order`` rendered with the play's variables and the extra vars,
``delay`` in fractions of a second, ``loop_control.extended_allitems``, and ``register`` refusing a bad name in
Ansible's words."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_strategy_from_the_extra_vars_lets_a_host_run_ahead(local_hosts: LocalHosts) -> None:
    # Under linear h2 could not write its file before h1 finished waiting for it: only free passes.
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          strategy: "{{ test_strategy | default('linear') }}"
          tasks:
            - name: wait for h2
              wait_for:
                path: "{{ shared }}/h2-ahead"
                timeout: 120
              when: inventory_hostname == 'h1'
            - name: run ahead
              shell: echo {{ inventory_hostname }} > {{ shared }}/{{ inventory_hostname }}-ahead
    """, "-e", "test_strategy=free")
    assert run.exit_code == 0, run.output


def test_order_from_the_play_vars(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          order: "{{ host_order }}"
          vars:
            host_order: reverse_sorted
          tasks:
            - shell: echo {{ inventory_hostname }} >> {{ shared }}/log
    """, "-f", "1")
    assert run.exit_code == 0, run.output
    assert local_hosts.log() == ["h3", "h2", "h1"]


def test_a_template_that_renders_to_no_strategy_is_an_error_at_the_play(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          strategy: "{{ test_strategy }}"
          tasks:
            - debug: msg=never
    """, "-e", "test_strategy=fastest")
    assert run.exit_code == 4, run.output
    assert ("playbook.yml:2:3: strategy '{{ test_strategy }}' renders to 'fastest'; expected 'linear', 'free' or "
            "'host_pinned'" in run.output)
    assert "never" not in run.output


def test_fractional_delay_and_loop_without_allitems(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: retried
              shell: test -e {{ shared }}/mark || { touch {{ shared }}/mark; exit 1; }
              register: result
              until: result is success
              retries: 3
              delay: 0.01
            - name: extended
              debug:
                msg: "{{ ansible_loop.allitems | default('none') }} {{ ansible_loop.index }}"
              loop: [a, b]
              loop_control:
                extended: true
                extended_allitems: false
    """)
    assert run.exit_code == 0, run.output
    assert run.task("retried")["h1"]["attempts"] == 2
    assert [item["msg"] for item in run.task("extended")["h1"]["results"]] == ["none 1", "none 2"]


def test_register_refuses_a_name_in_ansibles_words(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - debug: msg=hi
              register: 200
    """)
    assert run.exit_code == 4, run.output
    assert "playbook.yml:6:17: Invalid variable name '200' of type 'int'" in run.output


def test_break_when_ends_the_loop_after_the_item_that_meets_it(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: counted
              debug: var=item
              loop: [1, 2, 3, 4]
              loop_control:
                break_when: item >= 2
    """)
    assert run.exit_code == 0, run.output
    assert [item["item"] for item in run.task("counted")["h1"]["results"]] == [1, 2]
    # ansible-core 2.21 keeps each item's verdict
    assert [item["break_when_result"] for item in run.task("counted")["h1"]["results"]] == [False, True]


def test_break_when_reads_the_items_registered_result_and_an_error_fails_the_item(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: registered
              debug:
                msg: "{{ item * 10 }}"
              loop: [1, 2, 3]
              register: out
              loop_control:
                break_when: out.msg == 20
            - name: broken
              fail:
                msg: boom
              loop: [1, 2, 3]
              loop_control:
                break_when: 1 / 0 if item == 2 else False
              ignore_errors: true
    """)
    assert run.exit_code == 0, run.output
    assert [item["item"] for item in run.task("registered")["h1"]["results"]] == [1, 2]
    first, second = run.task("broken")["h1"]["results"]
    assert first["break_when_result"] is False and "break_when_suppressed_exception" not in first
    assert second["failed"] is True and second["msg"] == "boom"
    assert second["break_when_result"] == "Error rendering expression: division by zero"
    assert second["exception"] == second["break_when_suppressed_exception"] == "(traceback unavailable)"


def test_loop_var_and_index_var_given_as_templates(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars:
            name: fruit
          tasks:
            - name: named
              debug:
                msg: "{{ fruit }} {{ position }}"
              loop: [apple, pear]
              loop_control:
                loop_var: "{{ name }}"
                index_var: "{{ 'position' }}"
    """)
    assert run.exit_code == 0, run.output
    assert [item["msg"] for item in run.task("named")["h1"]["results"]] == ["apple 0", "pear 1"]
