"""command, shell and raw on a real (local) host."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.support.local_host import LocalHost, assert_ok


@pytest.fixture(scope="module")
def host(local_host: LocalHost) -> LocalHost:
    """This file's modules run on the controller itself, over the local connection."""
    return local_host



def test_command_runs_and_reports_output(host: LocalHost) -> None:
    result = host.run("command", {"_raw_params": "echo 'one two' three"})
    assert_ok(result, changed=True)
    assert result["cmd"] == ["echo", "one two", "three"]
    assert (result["rc"], result["stdout"], result["stderr"]) == (0, "one two three", "")
    assert result["stdout_lines"] == ["one two three"] and result["stderr_lines"] == []
    assert result["start"] and result["end"] and result["delta"].startswith("0:00:")


def test_command_does_not_use_a_shell(host: LocalHost) -> None:
    result = host.run("command", {"_raw_params": "echo a | wc -l"})
    assert result["stdout"] == "a | wc -l"


def test_command_non_zero_exit_fails_with_output(host: LocalHost) -> None:
    result = host.run("command", {"cmd": "ls /does/not/exist"})
    assert result["failed"] is True and result["msg"] == "The command exited with a non-zero return code."
    assert result["rc"] == 2 and "does/not/exist" in result["stderr"] and result["stdout_lines"] == []


def test_command_argv_keeps_arguments_whole(host: LocalHost) -> None:
    result = host.run("command", {"argv": ["printf", "%s|", "a b", "c"]})
    assert result["stdout"] == "a b|c|"


def test_command_expands_variables_unless_told_not_to(host: LocalHost) -> None:
    home = host.run("command", {"_raw_params": "echo $HOME"})["stdout"]
    assert home.startswith("/")
    literal = host.run("command", {"_raw_params": "echo $HOME", "expand_argument_vars": False})
    assert literal["stdout"] == "$HOME"


def test_creates_skips_the_second_run(host: LocalHost, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    args = {"_raw_params": f"touch {marker}", "creates": str(marker)}
    assert_ok(host.run("command", args), changed=True)
    second = host.run("command", args)
    assert_ok(second, changed=False)
    assert second["rc"] == 0 and second["msg"] == f"Did not run command since '{marker}' exists"
    assert second["stdout"] == f"skipped, since {marker} exists"  # ansible-core's older words, kept there


def test_removes_skips_when_the_file_is_gone(host: LocalHost, tmp_path: Path) -> None:
    target = tmp_path / "old"
    target.write_text("x")
    args = {"_raw_params": f"rm {target}", "removes": str(target)}
    assert_ok(host.run("command", args), changed=True)
    assert not target.exists()
    second = host.run("command", args)
    assert_ok(second, changed=False)
    assert second["msg"] == f"Did not run command since '{target}' does not exist"
    assert second["stdout"] == f"skipped, since {target} does not exist"


def test_chdir_runs_there_and_relative_creates_are_relative_to_it(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("command", {"_raw_params": "pwd", "chdir": str(tmp_path)})
    assert result["stdout"] == str(tmp_path)
    (tmp_path / "here").write_text("")
    skipped = host.run("command", {"_raw_params": "false", "chdir": str(tmp_path), "creates": "here"})
    assert_ok(skipped, changed=False)


def test_missing_chdir_fails(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("command", {"_raw_params": "pwd", "chdir": str(tmp_path / "nope")})
    assert result["failed"] is True and "Unable to change directory" in result["msg"]


def test_stdin_is_fed_with_or_without_a_newline(host: LocalHost) -> None:
    assert host.run("command", {"_raw_params": "cat", "stdin": "hello"})["stdout"] == "hello"
    assert host.run("command", {"_raw_params": "wc -c", "stdin": "hello"})["stdout"].strip() == "6"
    raw = host.run("command", {"_raw_params": "wc -c", "stdin": "hello", "stdin_add_newline": False})
    assert raw["stdout"].strip() == "5"


def test_no_command_fails(host: LocalHost) -> None:
    result = host.run("command", {"_raw_params": "  "})
    assert result["failed"] is True and result["msg"] == "one of the following is required: _raw_params, cmd, argv"


def test_check_mode_skips_with_typed_keys_and_runs_nothing(host: LocalHost, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    result = host.run("command", {"_raw_params": f"touch {marker}"}, check=True)
    assert result["skipped"] is True and result["changed"] is False
    assert (result["rc"], result["stdout"], result["stderr"]) == (0, "", "")
    assert result["stdout_lines"] == [] and result["stderr_lines"] == []
    # as ansible-core's module: the command it would have run, no times
    assert result["cmd"] == ["touch", str(marker)] and result["msg"] == "Command would have run if not in check mode"
    assert (result["start"], result["end"], result["delta"]) == (None, None, None)
    assert not marker.exists()


def test_check_mode_lets_creates_decide(host: LocalHost, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    args = {"_raw_params": f"touch {marker}", "creates": str(marker)}
    predicted = host.run("command", args, check=True)
    assert_ok(predicted, changed=True)
    assert "skipped" not in predicted and not marker.exists()
    assert_ok(host.run("command", args), changed=True)
    decided = host.run("command", args, check=True)
    assert_ok(decided, changed=False)
    assert decided["msg"] == f"Would not run command since '{marker}' exists"


def test_shell_pipes_variables_and_exit_status(host: LocalHost, tmp_path: Path) -> None:
    result = host.run("shell", {"_raw_params": "printf 'b\\na\\n' | sort | head -1; echo \"$GREETING\" >&2",
                                "chdir": str(tmp_path)}, environment={"GREETING": "hi"})
    assert_ok(result, changed=True)
    assert result["cmd"].startswith("printf") and result["stdout"] == "a" and result["stderr"] == "hi"
    failed = host.run("shell", {"_raw_params": "echo out; exit 3"})
    assert failed["failed"] is True and failed["rc"] == 3 and failed["stdout"] == "out"


def test_shell_executable_and_strip_empty_ends(host: LocalHost) -> None:
    bash = host.run("shell", {"_raw_params": "echo ${BASH_VERSION:+bash}", "executable": "/bin/bash"})
    assert bash["stdout"] == "bash"
    kept = host.run("shell", {"_raw_params": "printf 'x\\n\\n'", "strip_empty_ends": False})
    assert kept["stdout"] == "x\n\n" and kept["stdout_lines"] == ["x", ""]


def test_shell_creates_and_check_mode(host: LocalHost, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    args = {"_raw_params": f"echo made > {marker}", "creates": str(marker)}
    assert_ok(host.run("shell", args, check=True), changed=True)
    assert not marker.exists()
    assert_ok(host.run("shell", args), changed=True)
    assert marker.read_text() == "made\n"
    assert_ok(host.run("shell", args), changed=False)


def test_raw_runs_without_the_agent(host: LocalHost) -> None:
    result = host.run("raw", {"_raw_params": "echo hi; echo oops >&2"})
    assert_ok(result, changed=True)
    assert (result["rc"], result["stdout"], result["stderr"]) == (0, "hi\n", "oops\n")
    assert result["stdout_lines"] == ["hi"] and result["stderr_lines"] == ["oops"]


def test_raw_non_zero_fails_and_executable_is_used(host: LocalHost) -> None:
    failed = host.run("raw", {"_raw_params": "exit 4"})
    assert failed["failed"] is True and failed["rc"] == 4
    bash = host.run("raw", {"_raw_params": "echo ${BASH_VERSION:+bash}", "executable": "/bin/bash"})
    assert bash["stdout"] == "bash\n"


def test_raw_is_skipped_in_check_mode_as_ansible_core(host: LocalHost, tmp_path: Path) -> None:
    marker = tmp_path / "made"
    result = host.run("raw", {"_raw_params": f"touch {marker}"}, check=True)
    # ansible-core's raw action answers a skip and nothing else (no rc, no output keys)
    assert {key: value for key, value in result.items() if not key.startswith("_")} == {
        "changed": False, "skipped": True}
    assert not marker.exists()


def test_a_command_that_leaves_a_process_in_the_background_returns_when_it_exits(host: LocalHost) -> None:
    started = time.monotonic()
    result = host.run("shell", {"_raw_params": "echo started; sleep 30 &"})
    assert result["rc"] == 0 and result["stdout"] == "started"
    assert time.monotonic() - started < 25, "the shell waited for the background sleep"


def test_a_program_that_does_not_exist_fails_without_output_as_ansible(host: LocalHost) -> None:
    result = host.run("command", {"_raw_params": "commandthatdoesnotexist --flag"})
    assert result["failed"] is True and result["msg"] == "Error executing command."
    assert (result["rc"], result["stdout"], result["stderr"], result["changed"]) == (2, "", "", False)
