"""Plugin folders beside a playbook and in its roles (``filter_plugins/``, ``test_plugins/``,
``lookup_plugins/``), loaded when the playbook or the role is, and collections' plugins by full name."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.local_project import play_locally, write_files
from tests.support.playbook_run import PlaybookRun

pytestmark = pytest.mark.usefixtures("ansible_core")

FILTER = '''
class FilterModule:
    def filters(self):
        return {"%s": lambda value: "%s:" + value}
'''
TEST = '''
class TestModule:
    def tests(self):
        return {"even": lambda number: number % 2 == 0}
'''
LOOKUP = '''
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        return ["%s:" + term for term in terms]
'''


def test_a_playbooks_and_a_roles_plugin_folders_and_a_collections_plugins(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "filter_plugins/mine.py": FILTER % ("pbf", "pb"),
        "lookup_plugins/pbl.py": LOOKUP % "pbl",
        "roles/r1/filter_plugins/mine.py": FILTER % ("rf", "role"),
        "roles/r1/test_plugins/even.py": TEST,
        "roles/r1/lookup_plugins/rl.py": LOOKUP % "rl",
        "roles/r1/tasks/main.yml": """
            - name: role plugins
              debug:
                msg: "{{ 'x' | rf }} {{ 4 is even }} {{ lookup('rl', 'y') }}"
            """,
    })
    for _ in range(2):  # the second run's plan comes from the plan cache: the folders still serve it
        run = run_site(tmp_path)
        assert run.exit_code == 0, run.output
        assert run.msg("r1 : role plugins") == {"localhost": "role:x True rl:y"}
        # A role's plugins serve the whole run once the role is loaded, as in Ansible.
        assert run.msg("playbook plugins") == {"localhost": "pb:x pbl:y role:x"}
        assert run.msg("collection plugins") == {"localhost": "HI! True >a"}


def run_site(tmp_path: Path) -> PlaybookRun:
    return play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          roles: [r1]
          tasks:
            - name: playbook plugins
              debug:
                msg: "{{ 'x' | pbf }} {{ lookup('pbl', 'y') }} {{ 'x' | rf }}"
            - name: collection plugins
              debug:
                msg: "{{ 'hi' | demo.tools.shout }} {{ 'HI' is demo.tools.loud }} {{ lookup('demo.tools.echo', 'a') }}"
        """)


def test_an_unknown_filter_is_named_when_compiling_and_fails_its_task_with_its_position(tmp_path: Path) -> None:
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - debug:
                msg: "{{ 'hi' | demo.tools.whisper }}"
        """)
    assert run.exit_code == 2, run.output
    assert "site.yml:5:7" in run.output and "unknown filter 'demo.tools.whisper'" in run.output
    assert "the task will fail when it runs" in run.output
