"""Loading the configuration: search order, precedence, origins, relative paths."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from runner.config import Origin, load_config
from runner.errors import OptionError


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def project(tmp_path: Path) -> Path:
    path = tmp_path / "project"
    path.mkdir()
    return path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def load(project: Path, home: Path, overrides: dict | None = None, **env: str):
    return load_config(overrides, env={"HOME": str(home), **env}, cwd=project)


# search order ---------------------------------------------------------------------------------------------------

def test_without_a_file_every_setting_is_its_default(project: Path, home: Path) -> None:
    config = load(project, home)
    if Path("/etc/provisioning/provisioning.cfg").exists():
        pytest.skip("this machine has a system-wide configuration")
    assert config.path is None
    assert config.forks == 5
    assert config.host_key_checking is True
    assert config.become_method == "sudo"
    assert config.origin("forks") == Origin("default", "")
    assert config.changed() == {}


def test_the_environment_file_wins_over_the_working_directory_and_home(project: Path, home: Path,
                                                                       tmp_path: Path) -> None:
    write(project / "provisioning.cfg", "[defaults]\nforks = 2\n")
    write(home / ".provisioning.cfg", "[defaults]\nforks = 3\n")
    chosen = write(tmp_path / "elsewhere" / "my.cfg", "[defaults]\nforks = 4\n")
    config = load(project, home, PROVISIONING_CONFIG=str(chosen))
    assert config.path == chosen
    assert config.forks == 4


def test_the_working_directory_file_wins_over_home(project: Path, home: Path) -> None:
    local = write(project / "provisioning.cfg", "[defaults]\nforks = 2\n")
    write(home / ".provisioning.cfg", "[defaults]\nforks = 3\n")
    config = load(project, home)
    assert config.path == local
    assert config.forks == 2


def test_the_home_file_is_used_when_the_working_directory_has_none(project: Path, home: Path) -> None:
    dotfile = write(home / ".provisioning.cfg", "[defaults]\nforks = 3\n")
    config = load(project, home)
    assert config.path == dotfile
    assert config.forks == 3


def test_a_directory_in_the_environment_means_its_provisioning_cfg(project: Path, home: Path, tmp_path: Path) -> None:
    chosen = write(tmp_path / "conf" / "provisioning.cfg", "[defaults]\nforks = 7\n")
    assert load(project, home, PROVISIONING_CONFIG=str(chosen.parent)).path == chosen


def test_an_environment_file_that_does_not_exist_is_an_error(project: Path, home: Path) -> None:
    with pytest.raises(OptionError, match=r"PROVISIONING_CONFIG names .*missing\.cfg, which is not a file"):
        load(project, home, PROVISIONING_CONFIG=str(project / "missing.cfg"))


def test_a_world_writable_working_directory_is_not_trusted(project: Path, home: Path) -> None:
    write(project / "provisioning.cfg", "[defaults]\nforks = 2\n")
    dotfile = write(home / ".provisioning.cfg", "[defaults]\nforks = 3\n")
    os.chmod(project, 0o777)
    config = load(project, home)
    assert config.path == dotfile
    assert any("world-writable" in warning for warning in config.warnings)


# precedence and origins -----------------------------------------------------------------------------------------

def test_file_over_default_env_over_file_cli_over_env(project: Path, home: Path) -> None:
    cfg = write(project / "provisioning.cfg", "[defaults]\nforks = 2\ntimeout = 30\nremote_user = deploy\n")
    config = load(project, home, {"remote_user": "admin"}, PROVISIONING_TIMEOUT="45",
                  PROVISIONING_REMOTE_USER="ops")
    assert (config.forks, config.origin("forks")) == (2, Origin("file", f"{cfg}:2"))
    assert (config.timeout, config.origin("timeout")) == (45.0, Origin("env", "PROVISIONING_TIMEOUT"))
    assert (config.remote_user, config.origin("remote_user")) == ("admin", Origin("cli", "remote_user"))
    assert config.origin("become") == Origin("default", "")


def test_ansible_variables_override_the_file_and_ours_override_ansibles(project: Path, home: Path) -> None:
    write(project / "provisioning.cfg", "[defaults]\nforks = 2\nhost_key_checking = true\n")
    config = load(project, home, ANSIBLE_FORKS="8", PROVISIONING_FORKS="9", ANSIBLE_HOST_KEY_CHECKING="False")
    assert (config.forks, config.origin("forks").detail) == (9, "PROVISIONING_FORKS")
    assert (config.host_key_checking, config.origin("host_key_checking").detail) == (False,
                                                                                   "ANSIBLE_HOST_KEY_CHECKING")


def test_command_line_values_of_none_are_not_given(project: Path, home: Path) -> None:
    config = load(project, home, {"forks": None, "become": None, "become_user": "app"}, PROVISIONING_FORKS="4")
    assert config.forks == 4
    assert config.become is False
    assert config.become_user == "app"


def test_changed_lists_values_that_differ_from_the_default(project: Path, home: Path) -> None:
    write(project / "provisioning.cfg", "[defaults]\nforks = 5\ngathering = smart\n")
    config = load(project, home, {"become": True})
    assert config.changed() == {"gathering": "smart", "become": True}


def test_items_yield_every_setting_with_its_origin(project: Path, home: Path) -> None:
    config = load(project, home, PROVISIONING_NOCOLOR="1")
    items = {name: (value, origin) for name, value, origin in config.items()}
    assert items["nocolor"] == (True, Origin("env", "PROVISIONING_NOCOLOR"))
    assert items["forks"] == (5, Origin("default", ""))


def test_config_is_read_only_and_knows_its_settings(project: Path, home: Path) -> None:
    config = load(project, home)
    with pytest.raises(AttributeError, match="read-only"):
        config.forks = 3
    with pytest.raises(AttributeError, match="no setting named 'frks'"):
        _ = config.frks
    assert config["forks"] == config.forks


def test_config_survives_pickling_for_worker_processes(project: Path, home: Path) -> None:
    config = load(project, home, {"forks": 9})
    copy = pickle.loads(pickle.dumps(config))
    assert (copy.forks, copy.origin("forks"), copy.path) == (9, Origin("cli", "forks"), config.path)


def test_an_override_for_an_unknown_setting_is_a_programming_error(project: Path, home: Path) -> None:
    with pytest.raises(ValueError, match="unknown setting 'frks'"):
        load(project, home, {"frks": 3})


# paths ----------------------------------------------------------------------------------------------------------

def test_relative_paths_in_the_file_are_relative_to_its_directory(project: Path, home: Path, tmp_path: Path) -> None:
    conf_dir = tmp_path / "conf"
    cfg = write(conf_dir / "provisioning.cfg",
                "[defaults]\ninventory = inv/hosts, /abs/hosts\nroles_path = roles:~/roles:../shared\n"
                "private_key_file = ~/.ssh/id_ed25519\nlog_path = logs/run.log\n")
    config = load(project, home, PROVISIONING_CONFIG=str(cfg))
    assert config.inventory == [str(conf_dir / "inv" / "hosts"), "/abs/hosts"]
    assert config.roles_path == [str(conf_dir / "roles"), str(home / "roles"), str(tmp_path / "shared")]
    assert config.private_key_file == str(home / ".ssh" / "id_ed25519")
    assert config.log_path == str(conf_dir / "logs" / "run.log")


def test_relative_paths_from_the_environment_and_command_line_are_relative_to_the_working_directory(
        project: Path, home: Path) -> None:
    config = load(project, home, {"inventory": ["hosts.ini", "web1,web2,"]}, PROVISIONING_LIBRARY="lib:~/mods")
    assert config.library == [str(project / "lib"), str(home / "mods")]
    # A comma-separated host list from -i is a list of hosts, not a path.
    assert config.inventory == [str(project / "hosts.ini"), "web1,web2,"]


def test_remote_tmp_keeps_its_tilde_for_the_remote_user(project: Path, home: Path) -> None:
    write(project / "provisioning.cfg", "[defaults]\nremote_tmp = ~/.cache/tmp\nlocal_tmp = ~/tmp\n")
    config = load(project, home)
    assert config.remote_tmp == "~/.cache/tmp"
    assert config.local_tmp == str(home / "tmp")


# spellings Ansible accepts --------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("[defaults]\ninterpreter_python = /usr/bin/python3.11\n", "/usr/bin/python3.11"),
    ("[defaults]\ninterpreter = /opt/py/bin/python3\n", "/opt/py/bin/python3"),
    ("[defaults]\ninterpreter_python = auto_silent\n", "auto_silent"),
])
def test_interpreter_accepts_both_keys_and_auto_means_discover(project: Path, home: Path, text: str,
                                                               expected: str | None) -> None:
    write(project / "provisioning.cfg", text)
    assert load(project, home).interpreter == expected


def test_settings_under_ansible_section_spellings(project: Path, home: Path) -> None:
    write(project / "provisioning.cfg",
          "[defaults]\nretry_files_enabled = yes\n[ssh_connection]\nretries = 5\npipelining = True\n"
          "host_key_checking = false\ntimeout = 20\n[galaxy]\ncache_dir = cache\n")
    config = load(project, home)
    assert config.retry_files is True
    assert config.connect_retries == 5
    assert config.host_key_checking is False
    assert config.timeout == 20.0
    assert config.galaxy_cache_dir == str(project / "cache")


def test_roles_path_defaults_to_ansible_cores(tmp_path: Path) -> None:
    config = load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert config.roles_path == [str(tmp_path / ".ansible" / "roles"), "/usr/share/ansible/roles", "/etc/ansible/roles"]
