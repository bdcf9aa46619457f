"""Every setting type's parsing, and bad values reported with file:line:col or the variable's name."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.config import SETTINGS, load_config
from runner.config.locate import CONFIG_ENV
from runner.config.settings import SECTIONS, Setting
from runner.config.values import CONVERTERS, ValueContext, convert
from runner.errors import ExitCode, OptionError, ParseError

CONTEXT = ValueContext(Path("/base"), "/home/me")


def setting(type_: str, **extra) -> Setting:
    return Setting("example", "defaults", type_, None, "an example", **extra)


@pytest.mark.parametrize(("type_", "raw", "expected"), [
    ("int", "42", 42),
    ("int", " -3 ", -3),
    ("int", 7, 7),
    ("float", "2.5", 2.5),
    ("float", "10", 10.0),
    ("float", 3, 3.0),
    ("bool", "yes", True),
    ("bool", "On", True),
    ("bool", "1", True),
    ("bool", "false", False),
    ("bool", "no", False),
    ("bool", "", False),
    ("bool", True, True),
    ("str", "deploy", "deploy"),
    ("str", "", None),
    ("list", "junit, json,,", ["junit", "json"]),
    ("list", "junit\njson", ["junit", "json"]),
    ("list", ["a", "b"], ["a", "b"]),
    ("path", "keys/id", "/base/keys/id"),
    ("path", "~/id", "/home/me/id"),
    ("path", "", None),
    ("pathlist", "a, /b/c", ["/base/a", "/b/c"]),
    ("pathspec", "roles:/x/roles:~/r", ["/base/roles", "/x/roles", "/home/me/r"]),
    ("pathspec", "", []),
    ("interpreter", "/usr/bin/python3", "/usr/bin/python3"),
    ("interpreter", "auto", "auto"),
    ("interpreter", "", None),
])
def test_converters(type_: str, raw: object, expected: object) -> None:
    assert convert(setting(type_), raw, CONTEXT) == expected


@pytest.mark.parametrize(("type_", "raw", "message"), [
    ("int", "ten", "expected an integer, got 'ten'"),
    ("int", "1.5", "expected an integer, got '1.5'"),
    ("int", True, "expected an integer, got True"),
    ("float", "fast", "expected a number, got 'fast'"),
    ("float", "nan", "expected a finite number"),
    ("bool", "maybe", "expected a boolean .* got 'maybe'"),
    ("str", ["a"], "expected a single value"),
])
def test_converters_reject_bad_values(type_: str, raw: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        convert(setting(type_), raw, CONTEXT)


def test_choices_and_minimum() -> None:
    assert convert(setting("str", choices=("sudo", "su")), "su", CONTEXT) == "su"
    with pytest.raises(ValueError, match="expected one of sudo, su, got 'doas'"):
        convert(setting("str", choices=("sudo", "su")), "doas", CONTEXT)
    with pytest.raises(ValueError, match="at least 1, got 0"):
        convert(setting("int", minimum=1), "0", CONTEXT)


@pytest.mark.parametrize(("line", "message", "column"), [
    ("[defaults]\nforks = many\n", "bad value for 'forks': expected an integer, got 'many'", 9),
    ("[defaults]\nforks = 0\n", "bad value for 'forks': expected a value of at least 1, got 0", 9),
    ("[defaults]\ntimeout = soon\n", "bad value for 'timeout': expected a number, got 'soon'", 11),
    ("[defaults]\nhost_key_checking = perhaps\n", "bad value for 'host_key_checking': expected a boolean", 21),
    ("[defaults]\ngathering = always\n", "expected one of implicit, explicit, smart", 13),
    ("[privilege_escalation]\nbecome_method = doas\n", "expected one of sudo, su, got 'doas'", 17),
])
def test_a_bad_value_in_the_file_names_file_line_and_column(tmp_path: Path, line: str, message: str,
                                                             column: int) -> None:
    cfg = tmp_path / "provisioning.cfg"
    cfg.write_text(line)
    with pytest.raises(OptionError, match=message) as caught:
        load_config(env={"HOME": str(tmp_path), CONFIG_ENV: str(cfg)}, cwd=tmp_path)
    assert (caught.value.position.path, caught.value.position.line, caught.value.position.column) == (
        str(cfg), 2, column)
    assert caught.value.exit_code == ExitCode.BAD_OPTIONS
    assert caught.value.render().startswith(f"ERROR: {cfg}:2:{column}: bad value")


def test_a_bad_environment_value_names_the_variable(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="bad value for environment variable PROVISIONING_BECOME: "
                                          "expected a boolean") as caught:
        load_config(env={"HOME": str(tmp_path), "PROVISIONING_BECOME": "sometimes"}, cwd=tmp_path)
    assert caught.value.position is None


def test_a_bad_ansible_variable_says_how_to_override_it(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="ANSIBLE_GATHERING") as caught:
        load_config(env={"HOME": str(tmp_path), "ANSIBLE_GATHERING": "always"}, cwd=tmp_path)
    assert caught.value.hint == "set PROVISIONING_GATHERING to override it"
    # Ours is read first, so Ansible's bad value is never looked at.
    config = load_config(env={"HOME": str(tmp_path), "ANSIBLE_GATHERING": "always",
                              "PROVISIONING_GATHERING": "smart"}, cwd=tmp_path)
    assert config.gathering == "smart"


def test_a_bad_command_line_value_names_the_setting(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="bad value for forks on the command line: expected a value of at least 1"):
        load_config({"forks": 0}, env={"HOME": str(tmp_path)}, cwd=tmp_path)


@pytest.mark.parametrize(("text", "message", "line", "hint"), [
    ("[defaults]\nforsk = 3\n", "unknown setting 'forsk' in \\[defaults\\]", 2, "did you mean 'forks'?"),
    ("[defaults]\nbecome = true\n", "unknown setting 'become' in \\[defaults\\]", 2,
     "'become' belongs in [privilege_escalation]"),
    ("[defaults]\nssh_args = -C\n", "unknown setting 'ssh_args'", 2, "'ssh_args' belongs in [ssh_connection]"),
    ("[defaults]\nquux_zorp = 1\n", "unknown setting 'quux_zorp'", 2, None),
    ("[default]\nforks = 3\n", "unknown section \\[default\\]", 1, "did you mean 'defaults'?"),
    ("[defaults]\nforks = 3\nforks = 4\n", "'forks' is set twice in \\[defaults\\] \\(first on line 2\\)", 3, None),
    ("[defaults]\nforks = 3\n[defaults]\n", "section \\[defaults\\] appears twice", 3, None),
])
def test_unknown_keys_and_sections(tmp_path: Path, text: str, message: str, line: int, hint: str | None) -> None:
    cfg = tmp_path / "provisioning.cfg"
    cfg.write_text(text)
    with pytest.raises(OptionError, match=message) as caught:
        load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert caught.value.position.line == line
    assert caught.value.hint == hint


@pytest.mark.parametrize(("text", "message", "line"), [
    ("forks = 3\n", "a setting before any '\\[section\\]' header", 1),
    ("[defaults]\nthis is not a setting\n", "expected '\\[section\\]' or 'key = value'", 2),
])
def test_syntax_errors_are_parse_errors_with_a_line(tmp_path: Path, text: str, message: str, line: int) -> None:
    cfg = tmp_path / "provisioning.cfg"
    cfg.write_text(text)
    with pytest.raises(ParseError, match=message) as caught:
        load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert (caught.value.position.path, caught.value.position.line) == (str(cfg.absolute()), line)


# the table itself -----------------------------------------------------------------------------------------------

def test_the_table_is_consistent(tmp_path: Path) -> None:
    names = [s.name for s in SETTINGS]
    assert len(names) == len(set(names))
    ini_keys = [pair for s in SETTINGS for pair in s.ini_keys]
    assert len(ini_keys) == len(set(ini_keys)), "two settings share an INI key"
    env_names = [name for s in SETTINGS for name in s.env_names]
    assert len(env_names) == len(set(env_names)), "two settings share an environment variable"
    assert CONFIG_ENV not in env_names
    context = ValueContext(tmp_path, str(tmp_path))
    for s in SETTINGS:
        assert s.type in CONVERTERS, s.name
        assert all(section in SECTIONS for section, _ in s.ini_keys), s.name
        value = convert(s, s.default, context)  # every default is a valid value
        assert not s.choices or value in s.choices, s.name


def test_the_settings_the_issue_asks_for_exist() -> None:
    names = {s.name for s in SETTINGS}
    assert {"inventory", "forks", "remote_user", "private_key_file", "host_key_checking", "known_hosts_file",
            "timeout", "become", "become_method", "become_user", "become_ask_pass", "roles_path", "library",
            "filter_plugins", "stdout_callback", "interpreter", "gathering", "retry_files", "connect_retries",
            "pipelining", "local_tmp", "remote_tmp", "log_path", "nocolor", "deprecation_warnings",
            "any_errors_fatal", "galaxy_cache_dir"} <= names
