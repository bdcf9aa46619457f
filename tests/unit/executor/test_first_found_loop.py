"""A ``with_first_found`` loop leaves out its undefined terms, as ansible-core 2.19's does, at any depth and in
the variables its terms read; ``loop: "{{ query('first_found', ...) }}"`` and other ``with_`` loops still fail."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_with_first_found_skips_undefined_terms_and_other_loops_do_not(local_hosts: LocalHosts) -> None:
    (local_hosts.base / "files").mkdir()
    (local_hosts.base / "files" / "bar1").write_text("")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: listed
              debug: {msg: "{{ item | basename }}"}
              with_first_found: ["{{ missing_var }}foo1", bar1]
            - name: lazy
              debug: {msg: "{{ item | basename }}"}
              with_first_found:
                - files: "{{ files }}"
              vars:
                files: ["{{ missing_var }}foo1", bar1]
            - name: items
              debug: {msg: "{{ item }}"}
              with_items: ["{{ missing_var }}foo1", bar1]
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    for task in ("listed", "lazy"):
        assert [item["msg"] for item in run.task(task)["h1"]["results"]] == ["bar1"]
    assert run.task("items")["h1"]["failed"] and "'missing_var' is undefined" in run.task("items")["h1"]["msg"]
