"""ansible-core 2.19's deprecation of a condition written as a template as a whole (``when: "{{ x == 1 }}"``): the
task's result lists it under ``deprecations`` and the output shows it before the result's line, in Ansible's
words; a bare expression, or a template whose text is the expression (indirection), is no deprecation; with
``deprecation_warnings`` off the output shows none."""

from __future__ import annotations

import pytest

from runner.templating.deprecations import deprecation_text
from tests.unit.executor.conftest import LocalHosts

TASKS = """
- hosts: h1
  gather_facts: false
  vars:
    pepe: lola
    check: "pepe == 'lola'"
  tasks:
    - name: as a template
      debug: {msg: shown}
      when: "{{ pepe == 1 }}"
      register: templated
    - name: as an expression
      debug: {msg: shown}
      when: pepe == 1
      register: expression
    - name: indirection
      debug: {msg: shown}
      when: "{{ check }}"
      register: indirect
    - debug: {var: templated.deprecations}
"""

WORDS = ("[DEPRECATION WARNING]: Conditionals should not be surrounded by templating delimiters such as {{ }} or "
         "{% %}. This feature will be removed from ansible-core version 2.23.")


def test_a_condition_written_as_a_template_is_deprecated_in_the_tasks_result(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    templated = run.task("as a template")["h1"]
    assert templated["skipped"] is True
    assert templated["deprecations"] == [{"msg": WORDS.split(": ", 1)[1].split(" This feature")[0],
                                          "version": "2.23", "collection_name": "ansible.builtin",
                                          "deprecator": {"resolved_name": "ansible.builtin", "type": None}}]
    assert "deprecations" not in run.task("as an expression")["h1"]
    assert "deprecations" not in run.task("indirection")["h1"]
    assert run.output.count(WORDS) == 1
    assert run.output.index(WORDS) < run.output.index("skipping: [h1]")


def test_deprecation_warnings_off_hides_them_and_keeps_them_in_the_result(local_hosts: LocalHosts,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # as ansible-core 2.19.14 and 2.21.5: the deprecations target asserts them in results with the setting off
    monkeypatch.setenv("ANSIBLE_DEPRECATION_WARNINGS", "false")
    run = local_hosts.play(TASKS)
    assert run.exit_code == 0, run.output
    assert len(run.task("as a template")["h1"]["deprecations"]) == 1
    assert "DEPRECATION" not in run.output
    assert "Deprecation warnings can be disabled" not in run.output


def test_a_deprecation_is_worded_by_who_removes_it() -> None:
    assert deprecation_text({"msg": "Old.", "version": "2.23", "collection_name": "ansible.builtin"}) == \
        "Old. This feature will be removed from ansible-core version 2.23."
    assert deprecation_text({"msg": "Old.", "version": "3.0.0", "collection_name": "ns.col"}) == \
        "Old. This feature will be removed from collection 'ns.col' version 3.0.0."
    assert deprecation_text({"msg": "Old"}) == "Old. This feature will be removed in the future."
    assert deprecation_text({"msg": "Old.", "date": "2030-01-01", "collection_name": "ansible.builtin"}) == \
        "Old. This feature will be removed from ansible-core in a release after 2030-01-01."
    # a plugin of a collection that names no version: ansible-core 2.19's words for a module's own deprecate()
    assert deprecation_text({"msg": "Old.", "version": None, "collection_name": "foo.bar",
                             "deprecator": {"resolved_name": "foo.bar.noisy", "type": "module"}}) == \
        "Old. This feature will be removed from module 'noisy' in collection 'foo.bar' in a future release."
    assert deprecation_text({"msg": "Old.", "version": None, "collection_name": "foo.bar",
                             "deprecator": {"resolved_name": "foo.bar.act", "type": "action"}}) == \
        "Old. This feature will be removed from action plugin 'act' in collection 'foo.bar' in a future release."


def test_a_conditions_deprecation_is_in_the_result_whatever_the_task_variable_says(local_hosts: LocalHosts) -> None:
    # ansible-core 2.19.14 and 2.21.5 both: a task's ansible_deprecation_warnings changes neither the result nor
    # the output; only the run's deprecation_warnings hides the output's lines
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: wrapped
              assert:
                that: "{{ 1 == 1 }}"
            - name: quiet
              assert:
                that: "{{ 1 == 1 }}"
              vars:
                ansible_deprecation_warnings: false
        """)
    assert run.exit_code == 0, run.output
    (entry,) = run.task("wrapped")["h1"]["deprecations"]
    assert entry["msg"] == "Conditionals should not be surrounded by templating delimiters such as {{ }} or {% %}."
    assert entry["deprecator"] == {"resolved_name": "ansible.builtin", "type": None}
    assert run.task("quiet")["h1"]["deprecations"] == [entry]
    assert "[DEPRECATION WARNING]: Conditionals should not be surrounded" in run.output
    assert run.output.count("Deprecation warnings can be disabled") == 1
