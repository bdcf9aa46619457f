"""Inventory plugins written against Ansible's Python API, run through ansible-core's own plugin loader: their
documented options, a Cacheable plugin's cache across loads, a Constructable plugin reading the hosts of earlier
sources, and their failures as errors at the configuration's ``plugin:`` key."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.inventory import load_inventory
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup

pytestmark = pytest.mark.usefixtures("ansible_core")

CACHING_PLUGIN = '''
DOCUMENTATION = """
    name: remembered
    extends_documentation_fragment:
      - inventory_cache
    options:
      plugin:
        required: true
      name_file:
        required: true
      group:
        default: remembered_hosts
"""

from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable


class InventoryModule(BaseInventoryPlugin, Cacheable):
    NAME = "remembered"

    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path)
        self._read_config_data(path)
        key = self.get_cache_key(path)
        host = None
        if self.get_option("cache") and cache:
            host = self._cache.get(key)
        if host is None:
            with open(self.get_option("name_file")) as handle:
                host = handle.read().strip()
            self._cache[key] = host
        group = self.get_option("group")
        self.inventory.add_group(group)
        self.inventory.add_host(host, group)
        self.inventory.set_variable(host, "found_by", self.NAME)
'''

CONSTRUCTING_PLUGIN = '''
DOCUMENTATION = """
    name: by_role
    extends_documentation_fragment:
      - constructed
    options:
      plugin:
        required: true
"""

from ansible.errors import AnsibleParserError
from ansible.plugins.inventory import BaseInventoryPlugin, Constructable


class InventoryModule(BaseInventoryPlugin, Constructable):
    NAME = "by_role"

    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path, cache)
        self._read_config_data(path)
        if not inventory.hosts:
            raise AnsibleParserError("no hosts to group")
        for host in inventory.hosts:
            self._add_host_to_keyed_groups(self.get_option("keyed_groups"), {}, host, fetch_hostvars=True)
            self.inventory.set_variable(host, "grouped_by", "role")
        self.inventory.add_group("servers")
        self.inventory.add_child("servers", "role_web")
        self.inventory.set_variable("servers", "tier", 2)
'''


def _caching_setup(tmp_path: Path, name: str) -> tuple[Path, Path]:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "remembered.py").write_text(CACHING_PLUGIN)
    name_file = tmp_path / "name"
    name_file.write_text(name)
    config = tmp_path / "remembered.yml"
    config.write_text(f"plugin: remembered\nname_file: {name_file}\ncache: true\ncache_plugin: jsonfile\n"
                      f"cache_connection: {tmp_path / 'cache'}\n")
    return plugins, config


def test_a_caching_plugin_reads_its_cache_until_flushed(tmp_path: Path) -> None:
    plugins, config = _caching_setup(tmp_path, "first")
    setup = AnsiblePluginSetup(plugin_dirs=(plugins,))
    inventory = load_inventory([config], ansible_plugins=setup)
    assert [host.name for host in inventory.get_hosts("remembered_hosts")] == ["first"]
    assert inventory.host_vars("first")["found_by"] == "remembered"
    assert list((tmp_path / "cache").iterdir()), "the jsonfile cache plugin wrote the inventory's cache"

    (tmp_path / "name").write_text("second")
    again = load_inventory([config], ansible_plugins=setup)
    assert list(again.hosts) == ["first"]  # read from the cache, not the file

    flushed = load_inventory([config], ansible_plugins=AnsiblePluginSetup(plugin_dirs=(plugins,), flush_cache=True))
    assert list(flushed.hosts) == ["second"]


def test_a_plugin_beside_the_playbook_groups_the_hosts_of_earlier_sources(tmp_path: Path) -> None:
    (tmp_path / "inventory_plugins").mkdir()
    (tmp_path / "inventory_plugins" / "by_role.py").write_text(CONSTRUCTING_PLUGIN)
    hosts = tmp_path / "hosts.ini"
    hosts.write_text("[front]\nweb1 role=web\nweb2 role=web\ndb1 role=db\n")
    config = tmp_path / "group.yml"
    config.write_text("plugin: ansible.legacy.by_role\nkeyed_groups:\n  - key: role\n    prefix: role\n")
    inventory = load_inventory([hosts, config], playbook_dir=tmp_path)
    assert [host.name for host in inventory.get_hosts("role_web")] == ["web1", "web2"]
    assert [host.name for host in inventory.get_hosts("role_db")] == ["db1"]
    assert [host.name for host in inventory.get_hosts("servers")] == ["web1", "web2"]
    assert inventory.host_vars("web1")["tier"] == 2
    assert inventory.host_vars("db1")["grouped_by"] == "role"
    assert inventory.host_vars("db1")["role"] == "db"
    assert [host.name for host in inventory.get_hosts("front")] == ["web1", "web2", "db1"]


def test_a_plugin_failure_is_an_error_at_the_plugin_key(tmp_path: Path) -> None:
    (tmp_path / "inventory_plugins").mkdir()
    (tmp_path / "inventory_plugins" / "by_role.py").write_text(CONSTRUCTING_PLUGIN)
    config = tmp_path / "group.yml"
    config.write_text("# groups by role\nplugin: by_role\n")
    with pytest.raises(ParseError) as raised:
        load_inventory([config], playbook_dir=tmp_path)
    assert "group.yml:2:1" in str(raised.value)
    assert "inventory plugin 'by_role' failed to parse" in str(raised.value)
    assert "no hosts to group" in str(raised.value)


def test_an_unknown_plugin_is_an_error_at_the_plugin_key(tmp_path: Path) -> None:
    config = tmp_path / "plugin.yml"
    config.write_text("plugin: nosuch_plugin\n")
    with pytest.raises(ParseError) as raised:
        load_inventory([config])
    assert "plugin.yml:1:1: inventory plugin 'nosuch_plugin' was not found" in str(raised.value)
