"""Templates that cannot be compiled stop the run before any host is touched, with the task's file:line, never an
internal error (an unknown filter or test is named then, and fails its task when it runs, as in Ansible); a no_log
task's template is never quoted in the message."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from runner.templating import Templar
from runner.templating.errors import TemplateError
from tests.support.scripts import script

DEEP = "{{ " + "(" * 3000 + "1" + ")" * 3000 + " }}"
SECRET = "hunter2-do-not-print"


@pytest.mark.parametrize("prepare", ["check", "precompile"])
def test_expressions_nested_too_deeply_are_a_template_error(prepare: str) -> None:
    with pytest.raises(TemplateError, match="template nests expressions too deeply to parse") as raised:
        getattr(Templar(), prepare)(DEEP)
    assert raised.value.summary == "template nests expressions too deeply to parse"


def test_rendering_a_deeply_nested_value_is_a_template_error() -> None:
    with pytest.raises(TemplateError, match="too deeply"):
        Templar().template({"msg": DEEP})


def playbook(tmp_path: Path, task: str, *options: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "play.yml").write_text("- hosts: localhost\n  gather_facts: false\n  connection: local\n  tasks:\n"
                                       + task)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    return subprocess.run([script("provisioning-playbook"), "-i", "localhost,", "play.yml", *options],
                          capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=120)


@pytest.mark.parametrize("options", [(), ("--syntax-check",)])
def test_a_deeply_nested_template_stops_the_run_at_its_task(tmp_path: Path, options: tuple[str, ...]) -> None:
    result = playbook(tmp_path, f"    - name: deep\n      debug:\n        msg: \"{DEEP}\"\n", *options)
    assert result.returncode == 4, (result.stdout, result.stderr)
    assert result.stderr.startswith(f"ERROR: {tmp_path / 'play.yml'}:5:7: template error in task 'deep': template "
                                    "nests expressions too deeply to parse")
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr and "TASK" not in result.stdout


@pytest.mark.parametrize("options", [(), ("--syntax-check",)])
def test_a_no_log_task_template_error_does_not_show_the_template(tmp_path: Path, options: tuple[str, ...]) -> None:
    # The task starts on the line holding the secret: the excerpt of that line is left out too.
    result = playbook(tmp_path, f"    - debug: msg=\"{{{{ '{SECRET}' | default( }}}}\"\n      no_log: true\n", *options)
    assert result.returncode == 4, (result.stdout, result.stderr)
    assert result.stderr == (f"ERROR: {tmp_path / 'play.yml'}:5:7: template error in task 'debug', in its argument "
                             "'msg': Syntax error in template (the template is not shown: the task has no_log)\n")
    assert SECRET not in result.stdout + result.stderr


def test_a_no_log_task_names_the_keyword_and_the_unknown_filter(tmp_path: Path) -> None:
    # An unknown filter fails its task when it runs, as in Ansible; the compiler's warning names it already.
    result = playbook(tmp_path, f"    - debug: msg=hi\n      when: \"{{{{ '{SECRET}' | bol }}}}\"\n      no_log: yes\n")
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert f"[WARNING]: {tmp_path / 'play.yml'}:5:7: template error in task 'debug', in its keyword 'when': " \
           "unknown filter 'bol' (did you mean 'bool'?); the task will fail when it runs" in result.stderr
    assert SECRET not in result.stdout + result.stderr


def test_without_no_log_the_template_is_quoted(tmp_path: Path) -> None:
    result = playbook(tmp_path, "    - debug: msg=\"{{ 'visible' | default( }}\"\n")
    assert result.returncode == 4 and "visible" in result.stderr
