"""``loop_control: {extended: true}``: ``ansible_loop`` as Ansible gives it, where the first item has no
``previtem`` and the last no ``nextitem`` (undefined, not None)."""

from __future__ import annotations

from tests.unit.executor.conftest import LocalHosts


def test_extended_loop_info_leaves_the_ends_undefined(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: neighbours
              debug:
                msg: "{{ ansible_loop.previtem | default('-') }} {{ item }} {{ ansible_loop.nextitem | default('-') }}"
              loop: [a, b, c]
              loop_control: {extended: true}
        """)
    assert run.exit_code == 0, run.output
    assert [item["msg"] for item in run.task("neighbours")["h1"]["results"]] == ["- a b", "a b c", "b c -"]


def test_a_label_reads_the_registered_result_of_its_own_item(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: labelled
              command: "echo {{ item }}"
              register: r
              loop: [changed, skipped]
              loop_control: {label: "{{ r.stdout }}"}
              when: item == "changed"
        """)
    assert run.exit_code == 0, run.output
    first, second = run.task("labelled")["h1"]["results"]
    assert not first.get("failed") and "(item=changed)" in run.output
    # the skipped item's label cannot be rendered: it stays skipped, the error a warning of it (ansible-core 2.21)
    assert second["skipped"] and not second.get("failed") and "(item=skipped)" in run.output
    assert len(second["warnings"]) == 1 and "has no attribute 'stdout'" in second["warnings"][0]
