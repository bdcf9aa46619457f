"""The fact cache in a run: cacheable set_fact values as facts, a tagged play's fact gathering, and a cache plugin
written against Ansible's Python API, kept between runs as ansible-core keeps it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from runner.ansible_api.core import installed
from tests.unit.executor.conftest import LocalHosts

SET_ONLY = """
    - hosts: h1
      gather_facts: false
      tags: [set]
      tasks:
        - set_fact:
            foo: bar
            cacheable: true
"""
SET_FOO = (
    SET_ONLY
    + """
    - hosts: h1
      gather_facts: true
      gather_subset: min
      tags: [gather]
"""
)
SHOW = """
    - hosts: h1, h2
      gather_facts: false
      tasks:
        - name: show
          debug:
            msg: "{{ ansible_facts | length }} {{ hostvars.h1.ansible_facts.foo | default('-') }}"
        - name: origin
          debug:
            msg: "{{ ansible_facts.foo is ansible._protomatter.tagged_with 'Origin' }}"
          when: inventory_hostname == 'h1'
"""
# A cache plugin as ansible-core's test suite writes one: one file per key, JSON of the value
DUMMY_CACHE = '''
from __future__ import annotations

DOCUMENTATION = """
    name: dummy_cache
    short_description: dummy cache
"""

import json
import os
import pathlib

from ansible.plugins.cache import BaseCacheModule


class CacheModule(BaseCacheModule):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._dir = pathlib.Path(os.environ["DUMMY_CACHE_DIR"])
        self._dir.mkdir(parents=True, exist_ok=True)

    def get(self, key):
        try:
            return json.loads((self._dir / key).read_text())
        except FileNotFoundError:
            raise KeyError(key) from None

    def set(self, key, value):
        (self._dir / key).write_text(json.dumps(value))

    def keys(self):
        return [path.name for path in self._dir.iterdir()]

    def contains(self, key):
        return (self._dir / key).exists()

    def delete(self, key):
        (self._dir / key).unlink(missing_ok=True)

    def flush(self):
        for key in self.keys():
            self.delete(key)
'''


def test_a_cacheable_set_fact_value_is_a_fact_too(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(SET_ONLY + SHOW)
    assert run.exit_code == 0, run.output
    # as ansible-core sets both the fact and the variable: ansible_facts.foo, for the host and in its hostvars
    assert run.msg("show") == {"h1": "1 bar", "h2": "0 bar"}


def test_a_tagged_plays_fact_gathering_has_the_plays_tags(local_hosts: LocalHosts) -> None:
    run = local_hosts.play(SET_FOO, "--tags", "set")
    assert run.exit_code == 0, run.output
    assert "Gathering Facts" not in run.output  # an untagged play's gathering runs always, a tagged one's not
    run = local_hosts.play(SET_FOO, "--tags", "gather")
    assert "Gathering Facts" in run.output


@pytest.mark.skipif(not installed(), reason="a cache plugin written against Ansible's API needs ansible-core")
def test_a_cache_plugin_beside_the_playbook_keeps_facts_between_runs(
    local_hosts: LocalHosts, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "cache_plugins").mkdir()
    (tmp_path / "cache_plugins" / "dummy_cache.py").write_text(DUMMY_CACHE)
    monkeypatch.setenv("DUMMY_CACHE_DIR", str(tmp_path / "storage"))
    monkeypatch.setenv("ANSIBLE_CACHE_PLUGIN", "dummy_cache")
    assert local_hosts.play(SET_FOO, "--tags", "set").exit_code == 0
    # ansible-core 2.19's schema: the key s1_<host>, the entry's JSON as the payload; foo says where it was set
    entry = json.loads(json.loads((tmp_path / "storage" / "s1_h1").read_text())["__payload__"])
    assert entry["foo"]["value"] == "bar" and entry["foo"]["tags"][0]["__ansible_type"] == "Origin"
    run = local_hosts.play(SHOW)
    assert run.exit_code == 0, run.output
    assert run.msg("show") == {"h1": "1 bar", "h2": "0 bar"}
    assert run.msg("origin") == {"h1": True}
    run = local_hosts.play(SHOW, "--flush-cache")
    assert run.msg("show") == {"h1": "0 -", "h2": "0 -"}
    assert not (tmp_path / "storage" / "s1_h1").exists()


def test_a_cache_plugin_that_cannot_be_found_leaves_the_facts_in_memory(
    local_hosts: LocalHosts, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANSIBLE_CACHE_PLUGIN", "no_such_cache")
    run = local_hosts.play(SET_FOO, "--tags", "set")
    assert run.exit_code == 0, run.output
    assert "no_such_cache" in run.output
