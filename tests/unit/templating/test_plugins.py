"""filter_plugins folders: the project's own filters, configured folders and the playbook's, Ansible style."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from runner.templating import PluginError, Templar, TemplateError, get_environment, plugin_dirs_for

PLUGIN = '''
def shout(value, suffix="!"):
    return str(value).upper() + suffix


def is_even(value):
    return value % 2 == 0


class FilterModule:
    def filters(self):
        return {"shout": shout, "to_json": lambda value: "overridden"}


class TestModule:
    def tests(self):
        return {"even_number": is_even}
'''


def write_plugin(folder: Path, name: str, source: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(source)
    return path


def test_a_playbooks_filter_plugins_are_loaded_and_win_over_builtins(tmp_path: Path) -> None:
    write_plugin(tmp_path / "filter_plugins", "custom.py", PLUGIN)
    write_plugin(tmp_path / "filter_plugins", "_private.py", "raise RuntimeError('never imported')")
    environment = get_environment(plugin_dirs_for([], playbook_dir=tmp_path))
    templar = Templar(environment=environment)
    assert templar.template("{{ 'hi' | shout }}", {}) == "HI!"
    assert templar.template("{{ 4 is even_number }}", {}) is True
    assert templar.template("{{ 1 | to_json }}", {}) == "overridden"


def test_a_later_folder_replaces_an_earlier_ones_filter(tmp_path: Path) -> None:
    first = write_plugin(tmp_path / "configured", "a.py", PLUGIN).parent
    write_plugin(tmp_path / "playbook" / "filter_plugins", "b.py",
                 "class FilterModule:\n    def filters(self):\n        return {'shout': lambda v: 'quiet'}\n")
    environment = get_environment(plugin_dirs_for([first], playbook_dir=tmp_path / "playbook"))
    assert Templar(environment=environment).template("{{ 'x' | shout }}", {}) == "quiet"


def test_missing_folders_are_skipped(tmp_path: Path) -> None:
    environment = get_environment([tmp_path / "none"])
    assert Templar(environment=environment).template("{{ [1] | to_json }}", {}) == "[1]"


def test_a_broken_plugin_is_a_user_error_with_file_and_line(tmp_path: Path) -> None:
    path = write_plugin(tmp_path / "broken", "bad.py", "x = 1\ndef oops(:\n")
    with pytest.raises(PluginError) as caught:
        get_environment([path.parent])
    assert caught.value.position is not None
    assert Path(caught.value.position.path).resolve() == path.resolve()
    assert caught.value.position.line == 2


def test_a_plugin_that_breaks_the_contract_is_a_user_error(tmp_path: Path) -> None:
    path = write_plugin(tmp_path / "contract", "wrong.py", "class FilterModule:\n    def filters(self):\n"
                                                             "        return ['not', 'a', 'dict']\n")
    with pytest.raises(PluginError, match="must return a dict"):
        get_environment([path.parent])


BROKEN_MARKERS = """
class Broken:
    @property
    def accept_args_markers(self):
        raise Exception("boom")


class FilterModule:
    def filters(self):
        return {"broken": Broken(), "fine": lambda value: "fine"}


class TestModule:
    def tests(self):
        return {"broken": Broken()}
"""


def test_a_plugin_that_fails_to_load_fails_the_template_using_it_not_its_files_others(tmp_path: Path) -> None:
    # ansible-core reads each plugin's marker flags as it loads it: a failure there is the plugin's, said when used
    write_plugin(tmp_path / "filter_plugins", "half.py", BROKEN_MARKERS)
    templar = Templar(environment=get_environment([tmp_path / "filter_plugins"]))
    assert templar.template("{{ 1 | fine }}", {}) == "fine"
    with pytest.raises(TemplateError, match="The filter plugin 'broken' failed to load: boom"):
        templar.template("{{ '' | broken }}", {})
    with pytest.raises(TemplateError, match="The test plugin 'broken' failed to load: boom"):
        templar.template("{{ '' is broken }}", {})


def test_a_file_whose_filters_method_raises_is_skipped_as_ansible_core_skips_it(tmp_path: Path) -> None:
    write_plugin(tmp_path / "filter_plugins", "raises.py",
                 "class FilterModule:\n    def filters(self):\n        raise RuntimeError('no')\n")
    write_plugin(tmp_path / "filter_plugins", "works.py", PLUGIN)
    templar = Templar(environment=get_environment([tmp_path / "filter_plugins"]))
    assert templar.template("{{ 'hi' | shout }}", {}) == "HI!"


def test_an_unknown_filter_is_ansible_cores_syntax_error_when_the_template_runs(tmp_path: Path) -> None:
    with pytest.raises(TemplateError, match=r"Syntax error in template: No filter named 'nope'\."):
        Templar().template("{{ '' | nope }}", {})


class TestShippedFilters:
    def test_to_toml_renders_nested_tables_and_round_trips(self) -> None:
        config = {
            "version": 2,
            "root": "/var/lib/containerd",
            "grpc": {"address": "/run/containerd/containerd.sock", "uid": 0},
            "plugins": {"io.containerd.grpc.v1.cri": {"sandbox_image": "registry.k8s.io/pause:3.9",
                                                      "containerd": {"runtimes": {"runc": {
                                                          "runtime_type": "io.containerd.runc.v2",
                                                          "options": {"SystemdCgroup": True}}}}}},
            "mirrors": [{"host": "a", "ports": [1, 2]}, {"host": "b", "ports": []}],
        }
        text = Templar().template("{{ config | to_toml }}", {"config": config})
        assert '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]' in text
        assert "SystemdCgroup = true" in text
        assert "[[mirrors]]" in text
        assert tomllib.loads(text) == config
        assert Templar().template("{{ text | from_toml }}", {"text": text}) == config

    def test_to_toml_refuses_what_toml_cannot_hold(self) -> None:
        with pytest.raises(TemplateError, match="no null value"):
            Templar().template("{{ {'a': none} | to_toml }}", {})

    def test_semver_helpers(self) -> None:
        templar = Templar()
        tags = ["v1.28.9", "v1.29.3", "v1.30.0-rc.1", "v1.29.10"]
        assert templar.template("{{ 'v1.2.3' | semver_compare('1.2.4') }}", {}) == -1
        assert templar.template("{{ '1.2.3+build' | semver_compare('1.2.3') }}", {}) == 0
        assert templar.template("{{ tags | semver_latest }}", {"tags": tags}) == "v1.29.10"
        assert templar.template("{{ tags | semver_latest(include_prereleases=true) }}", {"tags": tags}) == \
            "v1.30.0-rc.1"
        assert templar.template("{{ tags | semver_sort | first }}", {"tags": tags}) == "v1.28.9"
        assert templar.template("{{ ('1.29.3' | semver_parts).minor_version }}", {}) == "1.29"
