"""A controller-side action's mistake (a missing source file, a bad argument) names the task and its place, as the
run's other mistakes do (runner/executor/module_call.py); fail and assert report their own words only."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_only_mistakes_name_the_task(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: missing source
              copy: {src: /nonexistent/source, dest: "{{ shared }}/copied"}
              ignore_errors: true
            - name: failing on purpose
              fail: {msg: on purpose}
              ignore_errors: true
            - name: asserting
              assert: {that: ["1 == 2"]}
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    missing = run.task("missing source")["h1"]["msg"]
    assert missing.endswith(f"(task 'missing source' at {local_hosts.base / 'playbook.yml'}:5:7)"), missing
    assert "_provisioning_mistake" not in run.task("missing source")["h1"]
    assert run.task("failing on purpose")["h1"]["msg"] == "on purpose"
    assert run.task("asserting")["h1"]["msg"] == "Assertion failed"
