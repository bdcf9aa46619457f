"""Handlers (runner/executor/playbook.py): notified by name or by a ``listen`` topic, run once per host however
often notified, in the order they are defined, at ``meta: flush_handlers`` and at the end of the play; a failed
host's handlers run only with ``--force-handlers`` (or ``force_handlers: true``). Every task and handler appends a
word to the host's own log, so the log is the order things ran in."""

from __future__ import annotations

import re

import pytest

from tests.unit.executor.conftest import HOSTS, LocalHosts

NOTIFY = """
- hosts: all
  gather_facts: false
  tasks:
    - name: first change
      shell: echo task1 >> {{ workdir }}/log
      notify:
        - second handler
        - config changed
    - name: second change
      shell: echo task2 >> {{ workdir }}/log
      notify: second handler
    - name: no change notifies nothing
      command: "true"
      changed_when: false
      notify: unnotified handler
    - name: flush
      meta: flush_handlers
    - name: after the flush
      shell: echo after-flush >> {{ workdir }}/log
      notify: first handler
  handlers:
    - name: first handler
      shell: echo first >> {{ workdir }}/log
    - name: second handler
      shell: echo second >> {{ workdir }}/log
    - name: topic listener
      shell: echo listener >> {{ workdir }}/log
      listen: config changed
    - name: unnotified handler
      shell: echo unnotified >> {{ workdir }}/log
"""

FAILING_HOST = """
- hosts: h1,h2
  gather_facts: false
  {force}
  tasks:
    - name: change
      shell: echo change >> {{ workdir }}/log
      notify: handle
    - name: h2 fails
      fail:
        msg: h2 fails after notifying
      when: inventory_hostname == 'h2'
  handlers:
    - name: handle
      shell: echo handled >> {{ workdir }}/log
"""


def test_handlers_run_once_in_definition_order_at_flush_and_at_the_end(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(NOTIFY)
    assert run.exit_code == 0, run.output
    for host in HOSTS:
        # The flush runs what was notified so far: the second handler once though notified twice, the listener
        # by its topic; the end of the play runs the handler notified after the flush.
        assert local_hosts.log(host) == ["task1", "task2", "second", "listener", "after-flush", "first"]
    assert run.output.count("RUNNING HANDLER [second handler]") == 1
    assert "RUNNING HANDLER [unnotified handler]" not in run.output


def test_each_play_runs_its_own_notified_handlers(local_hosts: LocalHosts) -> None:
    play = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: change
      shell: echo change >> {{ workdir }}/log
      notify: handle
  handlers:
    - name: handle
      shell: echo handled >> {{ workdir }}/log
"""
    run = local_hosts.play(play * 2)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["change", "handled", "change", "handled"]


@pytest.mark.parametrize(("force", "handled"), [
    ("", ["h1"]),
    ("--force-handlers", ["h1", "h2"]),
    ("force_handlers: true", ["h1", "h2"]),
    ("--force-handlers force_handlers: false", ["h1"]),
], ids=["failed-host-skips", "force-handlers-option", "force-handlers-keyword", "keyword-false-over-option"])
def test_a_failed_host_runs_its_handlers_only_when_forced(local_hosts: LocalHosts, force: str,
                                                          handled: list[str]) -> None:
    # the play's keyword, true or false, wins over the option, as in ansible-core
    option, _, keyword = force.partition(" ") if force.startswith("--") else ("", "", force)
    run = local_hosts.play(FAILING_HOST.replace("{force}", keyword), *([option] if option else []))
    assert run.exit_code == 2, run.output
    assert [host for host in ("h1", "h2") if "handled" in local_hosts.log(host)] == handled


def test_a_failed_handler_stops_its_host_and_not_the_others(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - name: change
              command: "true"
              notify: [breaks on h1, later handler]
          handlers:
            - name: breaks on h1
              fail:
                msg: handler fails
              when: inventory_hostname == 'h1'
            - name: later handler
              debug:
                msg: ran
        """)
    assert run.exit_code == 2, run.output
    assert run.msg("later handler") == {"h2": "ran"}


def test_a_topic_runs_every_listener_and_a_name_the_first_handler_with_it(local_hosts: LocalHosts) -> None:
    # as ansible-core: unnamed handlers listening to one topic all run; of two handlers with one name only the
    # first answers the name, while every handler listening to it as a topic runs
    local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - name: change
              command: "true"
              changed_when: true
              notify: [topic, twice named]
          handlers:
            - shell: echo unnamed1 >> {{ workdir }}/log
              listen: topic
            - shell: echo unnamed2 >> {{ workdir }}/log
              listen: topic
            - name: twice named
              shell: echo named1 >> {{ workdir }}/log
            - name: twice named
              shell: echo named2 >> {{ workdir }}/log
            - name: listener
              shell: echo listener >> {{ workdir }}/log
              listen: twice named
        """)
    assert local_hosts.log("h1") == ["unnamed1", "unnamed2", "named1", "listener"]


def test_the_force_handlers_setting_forces_them_as_the_option_does(local_hosts: LocalHosts,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANSIBLE_FORCE_HANDLERS", "true")
    run = local_hosts.play(FAILING_HOST.replace("{force}", ""))
    assert run.exit_code == 2, run.output
    assert [host for host in ("h1", "h2") if "handled" in local_hosts.log(host)] == ["h1", "h2"]


def test_a_roles_handler_is_notified_by_its_role_and_full_names(local_hosts: LocalHosts) -> None:
    # As ansible-core: ROLE : NAME, and NS.COLL.ROLE : NAME for a collection's role; notified three ways, it runs once.
    role = local_hosts.base / "collections" / "ansible_collections" / "demo" / "tools" / "roles" / "web"
    (role / "handlers").mkdir(parents=True)
    (role / "handlers" / "main.yml").write_text("- name: restart\n  shell: echo restart >> {{ workdir }}/log\n")
    (role / "tasks").mkdir()
    (role / "tasks" / "main.yml").write_text(
        "- shell: echo task >> {{ workdir }}/log\n  notify: ['restart', 'web : restart']\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          roles: [demo.tools.web]
          tasks:
            - shell: echo play >> {{ workdir }}/log
              notify: 'demo.tools.web : restart'
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "play", "restart"]



def test_a_roles_listen_topic_is_notified_by_its_role_and_full_names(local_hosts: LocalHosts) -> None:
    # As ansible-core's Handler: a role's handler also listens to ROLE : TOPIC (and NS.COLL.ROLE : TOPIC); a
    # plain role and a collection's role of the same name both answer ROLE : TOPIC.
    for role in (local_hosts.base / "roles" / "web",
                 local_hosts.base / "collections" / "ansible_collections" / "demo" / "tools" / "roles" / "web"):
        (role / "handlers").mkdir(parents=True)
        word = "coll" if "collections" in str(role) else "plain"
        (role / "handlers" / "main.yml").write_text(
            f"- name: {word} handler\n  shell: echo {word} >> {{{{ workdir }}}}/log\n  listen: reload\n")
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          roles: [web, demo.tools.web]
          tasks:
            - shell: echo by-role >> {{ workdir }}/log
              notify: 'web : reload'
            - meta: flush_handlers
            - shell: echo by-fqcn >> {{ workdir }}/log
              notify: 'demo.tools.web : reload'
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["by-role", "plain", "coll", "by-fqcn", "coll"]



def test_notify_and_handler_names_are_templated_and_topics_are_not(local_hosts: LocalHosts) -> None:
    # As ansible-core: notify is rendered with the task's variables (a template may give a list), a handler's
    # name with the play's; listen is taken as written, so "{{ topic }}" answers no rendered notification.
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          vars: {first: one, second: two, topic: three, many: [four, five]}
          tasks:
            - shell: echo task >> {{ workdir }}/log
              notify: ["{{ first }}", "{{ second }}", "{{ topic }}"]
            - meta: flush_handlers
            - shell: echo list >> {{ workdir }}/log
              notify: "{{ many }}"
          handlers:
            - name: one
              shell: echo one >> {{ workdir }}/log
            - name: "{{ second }}"
              shell: echo two >> {{ workdir }}/log
            - name: templated topic
              shell: echo templated-topic >> {{ workdir }}/log
              listen: "{{ topic }}"
            - name: three
              shell: echo three >> {{ workdir }}/log
            - name: four
              shell: echo four >> {{ workdir }}/log
            - shell: echo five >> {{ workdir }}/log
              listen: five
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "one", "two", "three", "list", "four", "five"]


def test_handlers_come_in_ansible_cores_order_and_the_last_block_wins_a_name(local_hosts: LocalHosts) -> None:
    # ansible-core's handler list: the listed roles' handlers, the play's own, then an imported role's; a name is
    # looked up from the last block back (in a block, its first handler wins it).
    for role, word in (("listed", "listed"), ("imported", "imported")):
        (local_hosts.base / "roles" / role / "handlers").mkdir(parents=True)
        (local_hosts.base / "roles" / role / "handlers" / "main.yml").write_text(
            f"- name: restart\n  shell: echo {word}-restart >> {{{{ workdir }}}}/log\n"
            f"- name: {word} only\n  shell: echo {word} >> {{{{ workdir }}}}/log\n")
    play = """
        - hosts: h1
          gather_facts: false
          roles: [listed]
          tasks:
            - %s
            - shell: echo task >> {{ workdir }}/log
              notify: [restart, own, listed only]
          handlers:
            - name: own
              shell: echo own >> {{ workdir }}/log
            - name: restart
              shell: echo play-restart >> {{ workdir }}/log
            - name: restart
              shell: echo play-restart-again >> {{ workdir }}/log
        """
    run = local_hosts.play(play % "debug: {msg: no import}")
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "listed", "own", "play-restart"]
    (local_hosts.workdir("h1") / "log").unlink()
    run = local_hosts.play(play % "import_role: {name: imported}")
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "listed", "own", "imported-restart"]


MISSING = """
- hosts: h1
  gather_facts: false
  tasks:
    - name: before
      shell: echo before >> {{ workdir }}/log
- hosts: h1
  gather_facts: false
  tasks:
    - name: unchanged
      debug:
        msg: nothing changed
      notify: nobody
    - name: changed
      shell: echo changed >> {{ workdir }}/log
      notify: nobody
    - name: after
      shell: echo after >> {{ workdir }}/log
"""


def test_a_change_notifying_no_handler_stops_the_run_when_it_happens(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(MISSING)
    assert run.exit_code == 1, run.output
    assert "The requested handler 'nobody' was not found" in run.output
    # the plays and tasks before it ran, an unchanged task's notification is no error, nothing ran after it
    assert local_hosts.log("h1") == ["before", "changed"]


def test_error_on_missing_handler_off_makes_it_a_warning(local_hosts: LocalHosts,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANSIBLE_ERROR_ON_MISSING_HANDLER", "false")
    run = local_hosts.play(MISSING)
    assert run.exit_code == 0, run.output
    assert "[WARNING]: The requested handler 'nobody' was not found" in run.output
    assert local_hosts.log("h1") == ["before", "changed", "after"]


def test_flush_handlers_as_a_handler_stops_the_run(local_hosts: LocalHosts) -> None:
    # As ansible-core: an error when the handler runs (its condition true), not when the playbook is read.
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - shell: echo task >> {{ workdir }}/log
              notify: [skipped flush, flush]
            - shell: echo after >> {{ workdir }}/log
          handlers:
            - name: skipped flush
              meta: flush_handlers
              when: false
            - name: flush
              meta: flush_handlers
        """)
    assert run.exit_code != 0
    assert "flush_handlers cannot be used as a handler" in run.output
    assert local_hosts.log("h1") == ["task", "after"]


def test_a_flush_handlers_whose_condition_is_false_flushes_nothing(local_hosts: LocalHosts) -> None:
    run = local_hosts.play("""
        - hosts: h1
          gather_facts: false
          tasks:
            - shell: echo task >> {{ workdir }}/log
              notify: handle
            - meta: flush_handlers
              when: false
            - shell: echo after >> {{ workdir }}/log
          handlers:
            - name: handle
              shell: echo handled >> {{ workdir }}/log
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "after", "handled"]


def test_a_handler_failing_at_a_flush_in_a_block_is_rescued_there(local_hosts: LocalHosts) -> None:
    # As ansible-core: the failure is the flush_handlers task's, in the host's block.
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - block:
                - shell: echo task >> {{ workdir }}/log
                  notify: sometimes fails
                - meta: flush_handlers
                - shell: echo after-flush >> {{ workdir }}/log
              rescue:
                - shell: echo rescued >> {{ workdir }}/log
            - shell: echo both >> {{ workdir }}/log
          handlers:
            - name: sometimes fails
              shell: "{{ 'exit 1' if inventory_hostname == 'h1' else 'echo handled >> ' ~ workdir ~ '/log' }}"
        """)
    assert run.exit_code == 0, run.output
    assert local_hosts.log("h1") == ["task", "rescued", "both"]
    assert local_hosts.log("h2") == ["task", "handled", "after-flush", "both"]


TAGGED = """
- hosts: h1,h2
  gather_facts: false
  tags: whole_play
  tasks:
    - shell: echo task >> {{ workdir }}/log
      notify: handle
      tags: [always, task_tag]
  handlers:
    - name: handle
      shell: echo handled >> {{ workdir }}/log
"""


def test_skipping_always_leaves_out_the_implicit_flush_and_the_handlers_it_would_run(local_hosts: LocalHosts) -> None:
    # As ansible-core: its flush after each section is a task tagged always (and the play's tags), so the untagged
    # task runs and notifies, and no flush comes to run the handler.
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - shell: echo task >> {{ workdir }}/log
              notify: handle
          handlers:
            - name: handle
              shell: echo handled >> {{ workdir }}/log
        """, "--skip-tags", "always")
    assert run.exit_code == 0, run.output
    assert [local_hosts.log(host) for host in ("h1", "h2")] == [["task"], ["task"]]
    assert "RUNNING HANDLER" not in run.output


def test_the_debug_log_says_which_hosts_the_implicit_flushes_ran_for(local_hosts: LocalHosts,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANSIBLE_DEBUG", "1")
    run = local_hosts.play("""
        - hosts: h1,h2
          gather_facts: false
          pre_tasks:
            - shell: echo pre >> {{ workdir }}/log
              changed_when: false
          tasks:
            - shell: echo task >> {{ workdir }}/log
              notify: handle
              when: inventory_hostname == 'h1'
          handlers:
            - name: handle
              shell: echo handled >> {{ workdir }}/log
        """)
    assert run.exit_code == 0, run.output
    lines = re.findall(r"^ *\d+ \d+\.\d{5}: (.*)$", run.output, re.MULTILINE)
    assert lines == ["No handler notifications for h1, skipping.", "No handler notifications for h2, skipping.",
                     "META: triggered running handlers for h1", "No handler notifications for h2, skipping.",
                     "No handler notifications for h1, skipping.", "No handler notifications for h2, skipping."]
    # each line where the decision is made: the tasks' flush before the handler it runs
    assert run.output.index("META: triggered") < run.output.index("RUNNING HANDLER [handle]")


def test_without_the_setting_there_is_no_debug_log(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(TAGGED)
    assert run.exit_code == 0, run.output
    assert "META:" not in run.output and "No handler notifications" not in run.output
