"""Vars plugins written against Ansible's Python API (runner/ansible_api/vars_plugins.py): asked beside the
group_vars/host_vars files of each path, enabled as ansible-core enables them, old-style ones with its warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.ansible_api.vars_plugins import VarsPluginSetup
from runner.inventory import load_inventory
from runner.inventory.ansible_plugin_setup import AnsiblePluginSetup
from tests.unit.inventory.files import write_tree

pytest.importorskip("ansible.plugins.vars")

MODERN = '''
from ansible.plugins.vars import BaseVarsPlugin


class VarsModule(BaseVarsPlugin):
    {attributes}

    def get_vars(self, loader, path, entities):
        return {{"{name}_saw": [entity.name for entity in entities], "shared": "{name}"}}
'''

OLD_STYLE = '''
class VarsModule:
    def get_host_vars(self, name):
        return {"old_host": name}

    def get_group_vars(self, name):
        return {"old_group_" + name: True}
'''


def _inventory(tmp_path: Path, plugins: dict[str, str], enabled: tuple[str, ...] = ("host_group_vars",)):
    write_tree(tmp_path, {"inv/hosts": "[web]\nw1\n", "inv/group_vars/web.yml": "shared: file\nfrom_file: 1\n",
                          **{f"plugins/{name}.py": text for name, text in plugins.items()}})
    setup = VarsPluginSetup(plugin_dirs=(tmp_path / "plugins",), enabled=enabled)
    return load_inventory([tmp_path / "inv"], ansible_plugins=AnsiblePluginSetup(vars_plugins=setup))


def test_a_plugin_is_asked_per_level_after_the_files_of_its_path(tmp_path: Path) -> None:
    inventory = _inventory(tmp_path, {"vp_level": MODERN.format(attributes="pass", name="vp_level")})
    host_vars = inventory.host_vars("w1")
    # the host's own level comes last: it is what the entities of the last call were
    assert host_vars["vp_level_saw"] == ["w1"]
    assert host_vars["from_file"] == 1
    # at the web group's level, the plugin came after group_vars/web.yml of the same path
    assert inventory.own_vars(inventory.groups["web"])["shared"] == "vp_level"


def test_a_plugin_that_requires_enabling_runs_only_when_vars_enabled_names_it(tmp_path: Path) -> None:
    plugins = {"vp_needs": MODERN.format(attributes="REQUIRES_ENABLED = True", name="vp_needs")}
    assert "vp_needs_saw" not in _inventory(tmp_path, plugins).host_vars("w1")
    enabled = _inventory(tmp_path, plugins, enabled=("host_group_vars", "vp_needs"))
    assert enabled.host_vars("w1")["vp_needs_saw"] == ["w1"]


def test_an_old_style_plugin_is_asked_per_entity_with_ansible_cores_deprecation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    host_vars = _inventory(tmp_path, {"vp_old_style": OLD_STYLE}).host_vars("w1")
    assert host_vars["old_host"] == "w1" and host_vars["old_group_web"] is True and host_vars["old_group_all"]
    assert "The vars plugin vp_old_style from" in capsys.readouterr().err
