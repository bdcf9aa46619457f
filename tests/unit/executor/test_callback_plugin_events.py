"""The events a callback plugin written against Ansible's API gets from a whole run, beyond the task's result:
``v2_runner_on_start`` for each host a task starts on, ``v2_runner_retry`` for each attempt run again,
``v2_on_file_diff`` where diffs are shown; each checked against ansible-core 2.19 with the same plugin."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.unit.executor.conftest import LocalHosts

pytest.importorskip("ansible.plugins.callback")

PLUGIN = """
from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "event_log"

    def _log(self, *words):
        with open({log!r}, "a") as out:
            out.write(" ".join(str(word) for word in words) + "\\n")

    def v2_runner_on_start(self, host, task):
        self._log("start", host.get_name(), task.get_name())

    def v2_runner_retry(self, result):
        self._log("retry", result.host.get_name(), result.result["attempts"], result.result["retries"])

    def v2_on_file_diff(self, result):
        self._log("diff", result.host.get_name(), result.task_name)

    def v2_runner_on_ok(self, result):
        self._log("ok", result.host.get_name(), result.task_name)

    def v2_runner_on_skipped(self, result):
        self._log("skipped", result.host.get_name(), result.task_name)
"""


def test_a_plugin_hears_each_host_start_each_retry_and_each_diff(local_hosts: LocalHosts, tmp_path: Path) -> None:
    log = tmp_path / "events.log"
    (tmp_path / "callback_plugins").mkdir()
    (tmp_path / "callback_plugins" / "event_log.py").write_text(PLUGIN.format(log=str(log)))
    marker = tmp_path / "ran"
    run = local_hosts.play(f"""
        - hosts: h1,h2
          gather_facts: false
          tasks:
            - name: skipped on one
              debug: msg=hi
              when: inventory_hostname == 'h2'
            - name: once
              debug: msg=once
              run_once: true
            - meta: noop
            - name: fails once
              shell: "[ -f {marker} ] || (touch {marker} && false)"
              register: twice
              until: twice is success
              retries: 3
              delay: 0
              when: inventory_hostname == 'h1'
            - name: written
              copy:
                content: "new"
                dest: "{{{{ workdir }}}}/out"
              diff: true
              when: inventory_hostname == 'h1'
        """)
    assert run.exit_code == 0, run.output
    assert log.read_text().splitlines() == [
        # a host skipped by `when` is started too; a run_once task on its one host; a meta task on none
        "start h1 skipped on one",
        "start h2 skipped on one",
        "skipped h1 skipped on one",
        "ok h2 skipped on one",
        "start h1 once",
        "ok h1 once",
        "start h1 fails once",
        "start h2 fails once",
        "retry h1 2 4",  # ansible-core 2.21 reports the attempt about to run
        "ok h1 fails once",
        "skipped h2 fails once",
        "start h1 written",
        "start h2 written",
        "diff h1 written",
        "ok h1 written",
        "skipped h2 written",
    ]
    assert "FAILED - RETRYING: [h1]: fails once (2 retries left)." in run.output
