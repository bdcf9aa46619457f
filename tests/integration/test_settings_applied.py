"""Output settings on real runs on localhost (local connection): display_ok_hosts, display_skipped_hosts,
nocolor, callbacks_enabled with junit_output_dir, and a setting that is not supported, warned about."""

from __future__ import annotations

import importlib.util
import xml.etree.ElementTree as ET
from pathlib import Path

from tests.integration.local_run import local_project, run_command

PLAYBOOK = """\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: unchanged
      command: "true"
      changed_when: false
    - name: skipped
      command: "true"
      when: false
    - name: changed
      command: "true"
"""


def test_ok_and_skipped_results_can_be_hidden(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[defaults]\ndisplay_ok_hosts = false\ndisplay_skipped_hosts = false\n"
                                      "nocolor = true\n", site=PLAYBOOK)
    done = run_command(project, "provisioning-playbook", "-i", "hosts", "site.yml")
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stdout
    assert "ok: [localhost]" not in done.stdout
    assert "skipping: [localhost]" not in done.stdout
    assert "TASK [changed] ***" in done.stdout and "changed: [localhost]" in done.stdout
    assert "TASK [unchanged]" not in done.stdout  # a header waits for a result it shows


def test_callbacks_enabled_junit_writes_a_report_in_junit_output_dir(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[defaults]\ncallbacks_enabled = community.general.junit, timer\n\n"
                                      "[callbacks]\njunit_output_dir = reports\n", site=PLAYBOOK)
    done = run_command(project, "provisioning-playbook", "-i", "hosts", "site.yml")
    assert done.returncode == 0, done.stderr
    [report] = (project / "reports").glob("site-*.xml")
    cases = [case.get("name") for case in ET.parse(report).iter("testcase")]
    assert cases == ["[localhost] unchanged", "[localhost] skipped", "[localhost] changed"]
    if importlib.util.find_spec("ansible") is not None:
        # with ansible-core, another name is a callback plugin written against its API, found by its loader
        # (ansible-core routes `timer` to ansible.posix, not installed here): skipped with its warning
        assert "[WARNING]: Skipping callback plugin 'timer', unable to load" in done.stderr
    else:
        assert done.stderr.startswith(f"[WARNING]: setting callbacks_enabled ({project / 'provisioning.cfg'}:2): "
                                      "timer not supported, ignored (supported: junit)")


def test_a_setting_that_is_not_supported_is_warned_about_and_the_run_goes_on(tmp_path: Path) -> None:
    project = local_project(tmp_path, "[ssh_connection]\npipelining = false\n", site=PLAYBOOK)
    done = run_command(project, "provisioning", "-i", "hosts", "localhost", "-m", "ping")
    assert done.returncode == 0, done.stderr
    assert done.stderr == (f"[WARNING]: setting pipelining = false ({project / 'provisioning.cfg'}:2) is not "
                           "supported: the agent always pipelines: modules run in one persistent process per host, "
                           "never as files copied to the target\n")
