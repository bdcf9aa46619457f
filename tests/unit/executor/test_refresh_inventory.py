"""``meta: refresh_inventory`` (runner/executor/inventory_refresh.py): the sources read again, the run's added hosts
and groupings applied again, and the plays after it run on what the sources now say."""

from __future__ import annotations

import json

from tests.unit.executor.conftest import LocalHosts


def test_the_plays_after_a_refresh_see_the_sources_as_they_are_now(local_hosts: LocalHosts) -> None:
    # The first play rewrites the inventory file without h1, with a new h4, then refreshes; h1's groupings are
    # not replayed (the sources no longer have it), the added host and h2's grouping are.
    new_hosts = {name: local_hosts.hosts[name] for name in ("h2", "h3")}
    new_hosts["h4"] = {"ansible_connection": "local", "workdir": str(local_hosts.base / "h4")}
    new = {"all": {"hosts": new_hosts, "vars": {"shared": str(local_hosts.shared)}}}
    (local_hosts.base / "new.yml").write_text(json.dumps(new))
    run = local_hosts.play("""
        - hosts: all
          gather_facts: false
          tasks:
            - name: group them
              group_by:
                key: grouped
            - name: add one
              add_host:
                name: added
                ansible_connection: local
              run_once: true
            - name: rewrite the inventory
              command: cp {{ shared }}/../new.yml {{ shared }}/../inventory.yml
              run_once: true
            - meta: refresh_inventory
            - name: the play goes on with its hosts
              debug:
                msg: "{{ inventory_hostname }}"
        - hosts: all
          gather_facts: false
          tasks:
            - name: after
              debug:
                msg: "{{ ansible_play_hosts | sort | join(',') }} {{ groups['grouped'] | sort | join(',') }}"
              run_once: true
        """)
    assert run.exit_code == 0, run.output
    assert run.ran("the play goes on with its hosts") == ["h1", "h2", "h3"]
    assert list(run.msg("after").values()) == ["added,h2,h3,h4 h2,h3"]
