"""An ``ansible.cfg`` is read where no ``provisioning.cfg`` is found, searched as Ansible searches it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli.config import main as config_main
from runner.config import load_config
from runner.errors import OptionError


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def home(tmp_path: Path) -> Path:
    (tmp_path / "home").mkdir()
    return tmp_path / "home"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "project").mkdir()
    return tmp_path / "project"


def load(project: Path, home: Path, **env: str):
    return load_config(env={"HOME": str(home), **env}, cwd=project)


def test_an_ansible_cfg_in_the_working_directory_is_read(project: Path, home: Path) -> None:
    path = write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    config = load(project, home)
    assert config.path == path
    assert config.forks == 7
    assert str(config.origin("forks")) == f"{path}:2"


def test_a_provisioning_cfg_anywhere_wins_over_an_ansible_cfg(project: Path, home: Path) -> None:
    write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    mine = write(home / ".provisioning.cfg", "[defaults]\nforks = 3\n")
    config = load(project, home)
    assert (config.path, config.forks) == (mine, 3)


def test_ansible_config_names_the_file_and_a_directory_means_its_ansible_cfg(project: Path, home: Path,
                                                                            tmp_path: Path) -> None:
    write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    chosen = write(tmp_path / "site" / "ansible.cfg", "[defaults]\nforks = 9\n")
    assert load(project, home, ANSIBLE_CONFIG=str(chosen)).forks == 9
    assert load(project, home, ANSIBLE_CONFIG=str(chosen.parent)).path == chosen


def test_ansible_config_naming_no_file_is_skipped_with_a_warning_as_ansible_skips_it(project: Path,
                                                                                     home: Path) -> None:
    local = write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    config = load(project, home, ANSIBLE_CONFIG=str(project / "missing.cfg"))
    assert (config.path, config.forks) == (local, 7)
    assert any("ignoring ANSIBLE_CONFIG" in warning and "missing.cfg" in warning for warning in config.warnings)


def test_the_home_ansible_cfg_is_read_when_the_working_directory_has_none(project: Path, home: Path) -> None:
    path = write(home / ".ansible.cfg", "[defaults]\nremote_user = deploy\n")
    config = load(project, home)
    assert (config.path, config.remote_user) == (path, "deploy")


def test_a_world_writable_working_directory_ansible_cfg_is_ignored_with_a_warning(project: Path,
                                                                                   home: Path) -> None:
    write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    os.chmod(project, 0o777)
    config = load(project, home)
    assert config.forks == 5
    assert any("ansible.cfg" in warning and "world-writable" in warning for warning in config.warnings)


def test_ansible_settings_provisioning_lacks_are_warnings_with_their_place(project: Path, home: Path) -> None:
    path = write(project / "ansible.cfg", "[defaults]\nnocows = 1\nforks = 7\n\n[persistent_connection]\n"
                                          "command_timeout = 30\n")
    config = load(project, home)
    assert config.forks == 7
    assert config.warnings == [
        f"{path}:5:1: section [persistent_connection] is not one of provisioning's: its settings are ignored",
        f"{path}:2:1: setting 'nocows' in [defaults] is not one of provisioning's: ignored"]


def test_a_bad_value_in_an_ansible_cfg_is_still_an_error_at_its_place(project: Path, home: Path) -> None:
    path = write(project / "ansible.cfg", "[defaults]\nforks = many\n")
    with pytest.raises(OptionError) as raised:
        load(project, home)
    assert f"{path}:2:9" in str(raised.value)


def test_dump_shows_the_ansible_cfg_as_the_origin(project: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(project / "ansible.cfg", "[defaults]\nforks = 7\n")
    monkeypatch.chdir(project)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("PROVISIONING_CONFIG", raising=False)
    monkeypatch.delenv("ANSIBLE_CONFIG", raising=False)
    result = CliRunner().invoke(config_main, ["dump", "--only-changed"])
    assert result.exit_code == 0, result.output
    assert f"forks({path}:2) = 7" in result.output
