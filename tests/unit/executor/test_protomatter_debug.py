"""``ansible._protomatter.debug`` (ansible-core 2.19's internal action, by its full name only): expressions
evaluated as written, an undefined result replaced by a numbered placeholder and warned of."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_expressions_are_shown_with_undefined_ones_numbered_and_warned_of(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars: {answer: 42}
          tasks:
            - name: evaluate
              ansible._protomatter.debug:
                expression:
                  - answer + 1
                  - missing_var
                  - undef('a hint')
              register: result
        """)
    assert run.exit_code == 0, run.output
    result = run.task("evaluate")["h1"]
    assert result["expression_result"] == [43, "<< error 1 - 'missing_var' is undefined >>",
                                           "<< error 2 - a hint >>"]
    assert result["warnings"] == ["Encountered 1 template error.\nerror 1 - 'missing_var' is undefined",
                                  "Encountered 1 template error.\nerror 2 - a hint"]
    short = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - protomatter_debug: {expression: ["1"]}
        """)
    assert short.exit_code != 0 and "couldn't resolve module/action 'protomatter_debug'" in short.output
