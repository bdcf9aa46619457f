"""meta: clear_host_errors (runner/executor/playbook.py): a host that went unreachable keeps its place in the play,
and the meta run by any other host lets it go on from the task after the one that could not reach it. As in
Ansible's lockstep, those tasks (which come before the one running) wait until the other hosts are through."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts

PLAYBOOK = """
    - hosts: all
      gather_facts: false
      tasks:
        - name: reach
          ping:
        - name: between
          debug:
            msg: between {{ inventory_hostname }}
        - name: clear
          meta: clear_host_errors
        - name: after
          debug:
            msg: after {{ inventory_hostname }}
    """


def test_a_revived_host_goes_on_from_where_it_stopped_once_the_others_are_through(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    local_hosts.add_unreachable("gone")
    run = local_hosts.play(PLAYBOOK)
    assert run.task("reach")["gone"].get("unreachable") is True
    # the revived host runs what it missed, the meta included, after h1 has finished
    assert run.msg("between") == {"h1": "between h1", "gone": "between gone"}
    assert run.msg("after") == {"h1": "after h1", "gone": "after gone"}
    assert run.task_headers() == ["reach", "between", "clear", "after", "between", "clear", "after"]
    assert run.stats["gone"]["unreachable"] == 1
    assert run.exit_code == 0, run.output  # as in Ansible: the errors were cleared, and it was reached since


def test_without_the_meta_an_unreachable_host_stops(local_hosts: LocalHosts) -> None:
    local_hosts.hosts = {"h1": local_hosts.hosts["h1"]}
    local_hosts.add_unreachable("gone")
    run = local_hosts.play(PLAYBOOK.replace("meta: clear_host_errors", "meta: noop"))
    assert run.msg("after") == {"h1": "after h1"}
    assert run.task_headers() == ["reach", "between", "clear", "after"]


def test_cleared_errors_no_longer_fail_the_run(local_hosts: LocalHosts) -> None:
    """A failed host stays stopped, but once another host clears the errors the run ends well, as in Ansible."""
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - fail:
              when: inventory_hostname == 'h2'
            - meta: clear_host_errors
            - name: after
              debug:
                msg: after
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("after") == ["h1"]
    assert run.stats["h2"]["failures"] == 1
