"""Meta tasks as ansible-core shows them: a header whether named or not, a ``META:`` line at -vv saying what
the request did or why not, a skipped request's ansible-core reason, and no count in the recap."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts

PLAYBOOK = """
    - hosts: h1
      gather_facts: false
      tasks:
        - name: stop early
          meta: end_host
          when: false
        - meta: noop
        - name: still here
          debug:
            msg: ran
    """


def test_vv_says_what_each_meta_task_did(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(PLAYBOOK, "-vv")
    assert run.exit_code == 0, run.output
    assert "1 plays in " in run.output
    assert run.task_headers() == ["stop early", "meta", "still here"]
    assert "META: end_host conditional evaluated to False, continuing execution for h1" in run.output
    assert "META: noop" in run.output
    assert run.stats["h1"]["ok"] == 1 and run.stats["h1"]["skipped"] == 0  # meta requests are not counted


def test_a_skipped_meta_task_gives_ansible_cores_reason(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(PLAYBOOK)
    skipped = run.task("stop early")["h1"]
    assert skipped["skip_reason"] == "end_host conditional evaluated to False, continuing execution for h1"
    assert "META:" not in run.output
