"""No setting is silently ignored: each is read by the code, or declared unsupported and reported when set."""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path
from typing import Any

import pytest

from runner.config import SETTINGS, Setting, load_config, support
from runner.config.support import unsupported_settings
from runner.errors import OptionError
from tests.support.scripts import script

RUNNER = Path(__file__).resolve().parents[3] / "runner"


def _is_config(node: ast.expr) -> bool:
    """``config``, ``project.config``, ``self.config``: an expression naming a configuration."""
    if isinstance(node, ast.Name):
        return node.id == "config"
    return isinstance(node, ast.Attribute) and node.attr == "config"


def settings_read_by_the_code() -> set[str]:
    """Setting names the runner's code reads by name: ``config.NAME``, ``config["NAME"]`` and
    ``getattr(config, "NAME")`` anywhere under runner/ (the configuration layer itself excluded, which handles
    every setting generically)."""
    names: set[str] = set()
    for path in RUNNER.rglob("*.py"):
        if path.parent.name == "config" and path.parent.parent == RUNNER:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Attribute) and _is_config(node.value):
                names.add(node.attr)
            elif (isinstance(node, ast.Subscript) and _is_config(node.value)
                  and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)):
                names.add(node.slice.value)
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
                  and len(node.args) >= 2 and _is_config(node.args[0])
                  and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
                names.add(node.args[1].value)
    return names


def _other_values(setting: Setting) -> set[Any] | None:
    """Every value but the default, where they can be listed (booleans, choices); None otherwise."""
    if setting.type == "bool":
        return {not setting.default}
    if setting.choices:
        return set(setting.choices) - {setting.default}
    return None


def wholly_unsupported(setting: Setting) -> bool:
    """True when no value but the default does anything: every other value is declared unsupported."""
    if any(not gap.values for gap in setting.unsupported):
        return True
    others = _other_values(setting)
    covered = {value for gap in setting.unsupported for value in gap.values}
    return others is not None and others <= covered


READ = settings_read_by_the_code()


def test_the_scan_finds_the_settings_the_code_is_known_to_read() -> None:
    assert {"forks", "log_path", "retry_files", "remote_port", "become_ask_pass", "inventory"} <= READ


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda setting: setting.name)
def test_every_setting_is_read_or_declared_unsupported(setting: Setting) -> None:
    if wholly_unsupported(setting):
        assert setting.name not in READ, (
            f"{setting.name} is read by the code but declared unsupported: remove its Unsupported entry")
    else:
        assert setting.name in READ, (
            f"setting {setting.name} is accepted but nothing reads it: read it (config.{setting.name}) or declare "
            "what is not supported with an Unsupported entry in runner/config/settings.py")


# reporting ------------------------------------------------------------------------------------------------------

def _load(tmp_path: Path, text: str) -> Any:
    (tmp_path / "provisioning.cfg").write_text(text)
    return load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)


def test_settings_left_at_their_defaults_are_not_reported(tmp_path: Path) -> None:
    config = _load(tmp_path, "[defaults]\nerror_on_undefined_vars = true\ngathering = implicit\n\n"
                             "[ssh_connection]\npipelining = true\n")
    assert unsupported_settings(config) == []


def test_an_unsupported_setting_is_a_warning_naming_where_it_was_set(tmp_path: Path) -> None:
    config = _load(tmp_path, "[defaults]\nforks = 3\n\n[ssh_connection]\npipelining = false\n")
    [warning] = unsupported_settings(config)
    assert warning.startswith(f"setting pipelining = false ({tmp_path / 'provisioning.cfg'}:5) is not supported: "
                              "the agent always pipelines")


def test_a_value_other_than_the_default_of_an_unsupported_setting_is_a_warning(tmp_path: Path) -> None:
    config = _load(tmp_path, "[defaults]\nlocal_tmp = /srv/tmp\n")
    assert [warning.split(" is not supported")[0] for warning in unsupported_settings(config)] == [
        f"setting local_tmp = /srv/tmp ({tmp_path / 'provisioning.cfg'}:2)"]
    assert unsupported_settings(_load(tmp_path, "[defaults]\ngathering = smart\n")) == []
    assert unsupported_settings(_load(tmp_path, "[defaults]\ndeprecation_warnings = false\n")) == []


def test_a_setting_that_would_change_the_run_is_an_error_at_its_position(tmp_path: Path) -> None:
    config = _load(tmp_path, "[defaults]\nerror_on_undefined_vars = False\n")
    with pytest.raises(OptionError) as raised:
        unsupported_settings(config)
    assert str(raised.value.position) == f"{tmp_path / 'provisioning.cfg'}:2:27"
    assert raised.value.message == ("setting error_on_undefined_vars = false is not supported: an undefined variable "
                                    "in a template always fails its task")


def test_a_fatal_setting_from_the_environment_names_the_variable(tmp_path: Path) -> None:
    config = load_config(env={"HOME": str(tmp_path), "ANSIBLE_ERROR_ON_UNDEFINED_VARS": "false"}, cwd=tmp_path)
    with pytest.raises(OptionError, match=r"^ERROR: setting error_on_undefined_vars = false \(env: "
                                          r"ANSIBLE_ERROR_ON_UNDEFINED_VARS\) is not supported"):
        unsupported_settings(config)


def test_an_unsupported_setting_from_the_environment_says_which_variable(tmp_path: Path) -> None:
    config = load_config(env={"HOME": str(tmp_path), "ANSIBLE_PIPELINING": "false"}, cwd=tmp_path)
    [warning] = unsupported_settings(config)
    assert warning.startswith("setting pipelining = false (env: ANSIBLE_PIPELINING) is not supported")


def test_callbacks_enabled_warns_of_the_reporters_it_does_not_have_without_ansible_core(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _load(tmp_path, "[defaults]\ncallbacks_enabled = ansible.posix.profile_tasks, community.general.junit, "
                             "timer\n")
    monkeypatch.setattr(support, "installed", lambda: False)
    [warning] = unsupported_settings(config)
    assert "ansible.posix.profile_tasks, timer not supported" in warning
    assert "junit," not in warning.split("(supported")[0]
    assert "callback plugins need ansible-core" in warning
    # with ansible-core, they are callback plugins: looked for when the run starts (runner/cli/callback_plugins.py)
    monkeypatch.setattr(support, "installed", lambda: True)
    assert unsupported_settings(config) == []


def test_callbacks_enabled_naming_ansible_cores_stdout_callbacks_is_no_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ansible-core skips a stdout callback named there: stdout_callback alone chooses the view
    config = _load(tmp_path, "[defaults]\ncallbacks_enabled = default, ansible.builtin.minimal, oneline\n")
    monkeypatch.setattr(support, "installed", lambda: False)
    assert unsupported_settings(config) == []


def test_a_run_with_a_fatal_setting_stops_before_anything_runs(tmp_path: Path) -> None:
    (tmp_path / "provisioning.cfg").write_text("[defaults]\nerror_on_undefined_vars = no\n")
    playbook = tmp_path / "site.yml"
    playbook.write_text("- hosts: localhost\n  gather_facts: false\n  tasks:\n    - debug: msg=hi\n")
    done = subprocess.run([script("provisioning-playbook"), str(playbook)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)})
    assert done.returncode == 5, done.stderr
    assert done.stdout == ""
    assert done.stderr.startswith(f"ERROR: {tmp_path / 'provisioning.cfg'}:2:27: setting error_on_undefined_vars = "
                                  "false is not supported: an undefined variable in a template always fails its task "
                                  "(remove it, or set it to true)\n")
    assert "Traceback" not in done.stderr


def test_the_user_docs_list_every_setting_that_is_not_supported() -> None:
    table = (RUNNER.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `")}
    assert {setting.name for setting in SETTINGS if setting.unsupported} <= rows
