"""A task's arguments given as one template (runner/executor/task_args.py): ``add_host: '{{ data }}'``,
``assert: '{{ item }}'`` and ``args: '{{ ... }}'`` yield their arguments when the task runs, under the ones
written one by one; free-form words that are no template, or a template that yields no mapping, fail only their
task, with Ansible's messages."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_whole_arguments_from_one_template(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars:
            new_host: {name: added1, groups: templated, origin: template}
            checks:
              - {that: ["1 == 1"], success_msg: first}
              - {that: ["'b' in 'abc'"], success_msg: second}
          tasks:
            - add_host: "{{ new_host }}"
            - name: from the added host
              debug: {msg: "{{ hostvars.added1.origin }} in {{ groups.templated }}"}
            - name: each check
              assert: "{{ item }}"
              loop: "{{ checks }}"
            - name: args keyword under written arguments
              debug:
                msg: written
              args: "{{ {'msg': 'from args', 'verbosity': 0} }}"
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("from the added host") == {"h1": "template in ['added1']"}
    assert [item["msg"] for item in run.task("each check")["h1"]["results"]] == ["first", "second"]
    assert run.msg("args keyword under written arguments") == {"h1": "written"}


def test_words_that_are_no_arguments_fail_only_their_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: raw words
              add_host: namehost groupsgroup
              ignore_errors: true
            - name: a template yielding text
              debug: msg=a {{ more }}
              vars: {more: "verbosity=0"}
              ignore_errors: true
            - name: still running
              debug: {msg: on}
        """)
    assert run.exit_code == 0, run.output
    raw = run.task("raw words")["h1"]
    assert raw["failed"] and raw["msg"].startswith("Action 'ansible.builtin.add_host' does not support raw params.")
    assert "playbook.yml:5:7" in raw["msg"]  # where the task is
    text = run.task("a template yielding text")["h1"]["msg"]
    assert text.startswith("Finalization of task args for 'ansible.builtin.debug' failed: Task args must resolve "
                           "to a 'dict' not 'str'.")
    assert run.ran("still running") == ["h1"]


def test_an_argument_whose_template_fails_names_itself_in_ansibles_words(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: undefined in one argument
              set_fact:
                fine: 1
                broken: "{{ [{'key': nowhere}] }}"
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    message = run.task("undefined in one argument")["h1"]["msg"]
    assert message.startswith("Task failed: Finalization of task args for 'ansible.builtin.set_fact' failed: Error "
                              "while resolving value for 'broken': 'nowhere' is undefined")
    assert "playbook.yml:5:7" in message


def test_a_loop_items_rendered_condition_is_untrusted_and_a_written_one_is_not(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars: {a_var: one}
          tasks:
            - name: written conditions
              assert: "{{ item }}"
              loop:
                - that: a_var == "one"
                - that: '{{ a_var == "one" }}'
            - name: a condition a template made
              assert: "{{ item }}"
              loop:
                - that: '"hi" == "{{ a_var }}"'
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("written conditions") == ["h1"]
    (refused,) = run.task("a condition a template made")["h1"]["results"]
    assert refused["failed"] and "Encountered untrusted template or expression" in refused["msg"]


def test_asserts_conditions_are_judged_as_written(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars:
            check: 1 == 1
            checks: ["1 == 1", "'a' in 'abc'"]
          tasks:
            - name: a variable's expression, a variable's list of them
              assert:
                that: ["{{ check }}", "check == '1 == 1'"]
            - assert: {that: "{{ checks }}"}
            - name: a string a template made
              assert: {that: "{{ '1 == 1' }}"}
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("a variable's expression, a variable's list of them") == ["h1"]
    refused = run.task("a string a template made")["h1"]
    assert refused["failed"] and "Encountered untrusted template or expression" in refused["msg"]


def test_module_defaults_given_as_a_template_are_read_where_the_task_runs(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars:
            debug_defaults: {msg: from the defaults}
          module_defaults:
            debug: "{{ debug_defaults }}"
          tasks:
            - name: defaults only
              debug:
            - name: its own argument wins
              debug: {msg: its own}
        """)
    assert run.exit_code == 0, run.output
    assert run.msg("defaults only") == {"h1": "from the defaults"}
    assert run.msg("its own argument wins") == {"h1": "its own"}


def test_an_assert_given_an_empty_that_fails_as_ansible_core_2_19(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: empty
              assert: "{{ item }}"
              loop:
                - that:
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    (result,) = run.task("empty")["h1"]["results"]
    assert result["failed"] and result["msg"] == "Empty conditional expressions are not allowed."
