"""YAML results (callback_result_format = yaml, stdout_callback = yaml) as ansible-core 2.19 prints them: each
expected text below is what ansible-playbook printed for the same task."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.callbacks import make_callbacks
from runner.callbacks.base import TaskInfo
from runner.callbacks.default import DefaultDisplay
from runner.callbacks.default_options import DefaultOptions
from runner.callbacks.result_yaml import yaml_result

COMMAND = TaskInfo(name="command", module="command", position="site.yml:6:7")
DEBUG = TaskInfo(name="debug", module="debug", position="site.yml:3:7")
COMMAND_RESULT = {"changed": True, "cmd": ["printf", "a\\nb\\n"], "delta": "0:00:00.017534", "msg": "", "rc": 0,
                  "stderr": "", "stderr_lines": [], "stdout": "a\nb", "stdout_lines": ["a", "b"],
                  "invocation": {"module_args": {}}}


@pytest.fixture(autouse=True)
def _no_forced_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVISIONING_FORCE_COLOR", raising=False)


def printed(task: TaskInfo, result: dict, **options: object) -> str:
    out = io.StringIO()
    view = DefaultDisplay(stream=out, err=io.StringIO(), nocolor=True, **options)  # type: ignore[arg-type]
    view.host_result(task, "localhost", result)
    return out.getvalue().split("*\n", 1)[1]  # without the task banner


def test_a_command_result_at_v_is_yaml_with_the_lines_omitted() -> None:
    assert printed(COMMAND, COMMAND_RESULT, verbosity=1, result_format="yaml") == (
        "changed: [localhost] => \n"
        "    changed: true\n"
        "    cmd:\n"
        "    - printf\n"
        "    - a\\nb\\n\n"
        "    delta: '0:00:00.017534'\n"
        "    msg: ''\n"
        "    rc: 0\n"
        "    stderr: ''\n"
        "    stderr_lines: <omitted>\n"
        "    stdout: |-\n"
        "        a\n"
        "        b\n"
        "    stdout_lines: <omitted>\n")


def test_nested_data_and_multi_line_strings() -> None:
    facts = {"ansible_facts": {"data": {"list": [1, 2], "nested": {"k": "v"}, "empty": [], "text": "x: y"}},
             "changed": False}
    assert yaml_result(facts) == ("\n    ansible_facts:\n        data:\n            empty: []\n            list:\n"
                                  "            - 1\n            - 2\n            nested:\n                k: v\n"
                                  "            text: 'x: y'\n    changed: false")
    assert printed(DEBUG, {"multi": "line1\nline2\n", "_ansible_verbose_always": True}, result_format="yaml") == (
        "ok: [localhost] => \n    multi: |-\n        line1\n        line2\n")


def test_pretty_false_keeps_strings_exact() -> None:
    assert yaml_result({"out": "a \nb\t\n", "out_lines": ["a"], "stdout": "x", "stdout_lines": ["x"]},
                       lossy=False, indent=None) == (
        '\n    out: "a \\nb\\t\\n"\n    out_lines:\n    - a\n    stdout: x\n    stdout_lines:\n    - x')


def test_values_yaml_has_no_type_for_are_written_as_lists_or_text() -> None:
    assert yaml_result({"path": Path("/etc"), "pair": (1, 2)}) == "\n    pair:\n    - 1\n    - 2\n    path: /etc"


def test_the_yaml_stdout_callback_is_the_default_view_with_yaml_results() -> None:
    out = io.StringIO()
    callbacks = make_callbacks("yaml", [], 0, False, True, stream=out)
    view = callbacks.callbacks[-1]
    assert isinstance(view, DefaultDisplay) and view.result_format == "yaml"


def test_a_playbook_run_prints_yaml_from_ansible_cfg(tmp_path: Path) -> None:
    (tmp_path / "ansible.cfg").write_text("[defaults]\nstdout_callback = yaml\n")
    (tmp_path / "site.yml").write_text("- hosts: localhost\n  gather_facts: false\n  tasks:\n"
                                       "    - debug:\n        msg: \"one\\ntwo\"\n")
    env = {**os.environ, "HOME": str(tmp_path), "PROVISIONING_RECORD_RUNS": "false"}
    for name in ("PROVISIONING_CONFIG", "ANSIBLE_CONFIG", "ANSIBLE_STDOUT_CALLBACK"):
        env.pop(name, None)
    done = subprocess.run([str(Path(sys.executable).parent / "provisioning-playbook"), "-i", "localhost,", "-c",
                           "local", "site.yml"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok: [localhost] => \n    msg: |-\n        one\n        two\n" in done.stdout


LONG = "word " * 30 + "end"


def test_result_indentation_indents_the_yaml_document_by_its_width() -> None:
    # ansible-core 2.21's callback_result_indentation = 2
    assert printed(COMMAND, {"changed": False, "msg": "no reason", "nested": {"k": ["v"]}}, verbosity=1,
                   result_format="yaml", options=DefaultOptions(result_indentation=2)) == (
        "ok: [localhost] => \n  changed: false\n  msg: no reason\n  nested:\n    k:\n    - v\n")


def test_long_strings_break_near_80_columns_unless_told_otherwise() -> None:
    # PyYAML's default width (80, before the view's indentation of 4)
    assert yaml_result({"msg": LONG}) == f"\n    msg: {'word ' * 15}word\n        {'word ' * 14}end"
    assert yaml_result({"msg": LONG}, width=DefaultOptions(yaml_line_width="no-break").yaml_width(79)) == \
        f"\n    msg: {LONG}"


def test_terminal_width_breaks_at_the_views_columns() -> None:
    assert DefaultOptions(yaml_line_width="terminal-width").yaml_width(120) == 120
    assert DefaultOptions().yaml_width(120) is None
    wide = printed(DEBUG, {"msg": LONG, "_ansible_verbose_always": True}, result_format="yaml", columns=200,
                   options=DefaultOptions(yaml_line_width="terminal-width"))
    assert wide == f"ok: [localhost] => \n    msg: {LONG}\n"
