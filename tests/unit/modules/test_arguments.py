"""Each new module's argument spec, checked the way the agent and the compiler check it."""

from __future__ import annotations

from typing import Any

import pytest

from modules._utils import ArgumentError, validate_arguments
from runner.actions import ACTIONS
from runner.module_index import ModuleIndex

INDEX = ModuleIndex()
NEW_MODULES = ["command", "shell", "raw", "copy", "file", "stat", "setup"]


def validate(module: str, params: dict[str, Any], **options: Any) -> dict[str, Any]:
    info = INDEX.get(module)
    return validate_arguments(info.argument_spec, params, info.spec_rules, **options)


@pytest.mark.parametrize("module", NEW_MODULES)
def test_every_module_documents_its_options(module: str) -> None:
    info = INDEX.get(module)
    documented = set(info.documentation["options"])
    assert info.argument_spec, module
    assert {name for name in info.argument_spec if not name.startswith("_")} <= documented
    assert getattr(info.python, "EXAMPLES", "").strip() and getattr(info.python, "RETURN", None)


def test_modules_with_a_controller_action_have_one() -> None:
    declared = {name: INDEX.get(name).action for name in NEW_MODULES if INDEX.get(name).action}
    assert declared == {"raw": "raw", "copy": "copy"}
    assert set(declared.values()) <= set(ACTIONS)


def test_free_form_modules() -> None:
    assert [name for name in NEW_MODULES if INDEX.get(name).free_form == "_raw_params"] == ["command", "shell", "raw"]


def test_command_cmd_is_the_free_form_and_defaults_fill_in() -> None:
    params = validate("command", {"cmd": "uptime", "stdin_add_newline": "no"})
    assert params["_raw_params"] == "uptime" and params["stdin_add_newline"] is False
    assert params["strip_empty_ends"] is True and params["expand_argument_vars"] is True and params["argv"] is None


def test_command_argv_is_a_list_of_strings() -> None:
    assert validate("command", {"argv": ["echo", 1]})["argv"] == ["echo", "1"]


def test_command_text_and_argv_are_exclusive() -> None:
    with pytest.raises(ArgumentError, match="mutually exclusive"):
        validate("command", {"_raw_params": "ls", "argv": ["ls"]})


def test_command_accepts_executable_as_ansible_does_and_shell_uses_it() -> None:
    # command takes it only to warn that it is ignored (see modules/command.py), as ansible-core does
    assert validate("command", {"_raw_params": "ls", "executable": "/bin/bash"})["executable"] == "/bin/bash"
    assert validate("shell", {"_raw_params": "ls", "executable": "/bin/bash"})["executable"] == "/bin/bash"


def test_raw_needs_its_command() -> None:
    with pytest.raises(ArgumentError, match="missing required arguments: _raw_params"):
        validate("raw", {"executable": "/bin/sh"})


def test_copy_needs_src_or_content_and_not_both() -> None:
    with pytest.raises(ArgumentError, match="one of the following is required: src, content"):
        validate("copy", {"dest": "/tmp/x"})
    with pytest.raises(ArgumentError, match="mutually exclusive: src\\|content"):
        validate("copy", {"dest": "/tmp/x", "src": "a", "content": "b"})
    with pytest.raises(ArgumentError, match="missing required arguments: dest"):
        validate("copy", {"content": "b"})


def test_copy_defaults_and_aliases() -> None:
    params = validate("copy", {"content": "x", "dest": "/tmp/x", "thirsty": "no", "mode": 0o644})
    assert params["force"] is False and params["mode"] == 0o644
    assert (params["backup"], params["follow"], params["local_follow"], params["remote_src"]) == (
        False, False, True, False)


def test_internal_parameters_reach_the_module_untouched() -> None:
    files = [{"path": "a", "checksum": "0" * 40}]
    params = validate("copy", {"src": "/x", "dest": "/y", "_provisioning_files": files})
    assert params["_provisioning_files"] == files


def test_file_path_aliases_and_state_choices() -> None:
    assert validate("file", {"dest": "/tmp/x"})["path"] == "/tmp/x"
    assert validate("file", {"name": "/tmp/x", "state": "touch"})["state"] == "touch"
    with pytest.raises(ArgumentError, match="value of state must be one of"):
        validate("file", {"path": "/tmp/x", "state": "present"})
    with pytest.raises(ArgumentError, match="given twice"):
        validate("file", {"path": "/tmp/x", "dest": "/tmp/y"})
    params = validate("file", {"path": "/tmp/x"})
    assert (params["follow"], params["force"], params["recurse"]) == (True, False, False)
    assert params["modification_time_format"] == "%Y%m%d%H%M.%S"


def test_stat_aliases_and_checksum_choices() -> None:
    params = validate("stat", {"name": "/etc", "checksum": "sha256", "mime": False})
    assert (params["path"], params["checksum_algorithm"], params["get_mime"]) == ("/etc", "sha256", False)
    assert validate("stat", {"path": "/etc"})["follow"] is False
    with pytest.raises(ArgumentError, match="checksum_algorithm must be one of"):
        validate("stat", {"path": "/etc", "checksum_algorithm": "crc32"})


def test_setup_subsets_and_filters_from_text() -> None:
    params = validate("setup", {"gather_subset": "!all,network", "filter": "ansible_eth*"})
    assert params["gather_subset"] == ["!all", "network"] and params["filter"] == ["ansible_eth*"]
    assert validate("setup", {})["gather_subset"] == ["all"]


def test_names_only_check_accepts_templates() -> None:
    """The compiler checks names before templating: values may still be Jinja expressions."""
    params = validate("file", {"path": "{{ dir }}", "mode": "{{ mode }}", "recurse": "{{ r }}"}, check_values=False)
    assert params["recurse"] == "{{ r }}"
    with pytest.raises(ArgumentError, match="unsupported parameter: pathh"):
        validate("file", {"pathh": "/x"}, check_values=False)


def test_user_warns_of_a_password_that_is_not_a_hash_as_ansible_does() -> None:
    from modules.user import looks_unhashed

    assert looks_unhashed("plaintextpassword") and looks_unhashed("$6$salt$short")
    assert not looks_unhashed("$6$saltsalt$" + "a" * 86) and not looks_unhashed("!") and not looks_unhashed(None)


def test_a_str_option_given_a_mapping_takes_its_text_as_ansible_does() -> None:
    assert validate("file", {"path": {"a": 1}, "state": "absent"})["path"] == "{'a': 1}"


def test_shell_takes_expand_argument_vars_only_to_refuse_it_as_ansibles_shell() -> None:
    from modules import shell
    from modules._utils import Module, ModuleFailure

    params = validate("shell", {"_raw_params": "echo hi", "expand_argument_vars": False})
    with pytest.raises(ModuleFailure, match=r"^Unsupported parameters for \(shell\) module: expand_argument_vars$"):
        shell.run(Module(params))


def test_role_arguments_report_suboption_problems_in_ansible_cores_words() -> None:
    # ansible-core's validator of role arguments (errors collected) names where a suboption is, and reports the
    # unsupported ones together, by dotted path, once every option is checked
    spec = {"multi": {"type": "dict", "options": {"second": {"type": "dict", "options": {
        "third": {"type": "int", "required": True}}}}}}
    errors: list[str] = []
    validate_arguments(spec, {"multi": {"second": {"stray": True}}}, errors=errors)
    assert errors == ["missing required arguments: third found in multi -> second",
                      "multi.second.stray. Supported parameters include: third."]


def test_module_arguments_stop_at_the_first_suboption_problem() -> None:
    spec = {"multi": {"type": "dict", "options": {"third": {"type": "int"}}}}
    with pytest.raises(ArgumentError, match="unsupported parameter for multi: stray"):
        validate_arguments(spec, {"multi": {"stray": True}})


def test_user_append_without_groups_fails_as_ansible_core_2_21s() -> None:
    with pytest.raises(ArgumentError, match=r"^append is True but all of the following are missing: groups$"):
        validate("user", {"name": "u", "append": True})
    assert validate("user", {"name": "u", "append": True, "groups": ["g"]})["append"] is True
    assert validate("user", {"name": "u"}, check_values=False)  # the compiler checks names alone: no failure yet
    assert validate("user", {"name": "u", "append": True}, check_values=False)


def test_user_seuser_without_selinux_is_ignored_with_ansible_core_2_21s_warning(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from modules import user
    from modules._utils import Module

    monkeypatch.setattr(user, "selinux_enabled", lambda: False)
    module = Module(validate("user", {"name": "root", "seuser": "user_u"}), check_mode=True)
    user.run(module)
    assert module.warnings == ["'seuser' is set to 'user_u' but SELinux is not enabled on this system. The 'seuser' "
                               "parameter will be ignored."]
