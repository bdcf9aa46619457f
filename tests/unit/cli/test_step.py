"""``provisioning-playbook --step``: each task is asked about on the terminal, as Ansible asks."""

from __future__ import annotations

import io
import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from runner.callbacks.base import TaskInfo
from runner.cli.step import StepPrompt

PLAYBOOK = """
- hosts: localhost
  gather_facts: false
  tasks:
    - name: first
      debug: {msg: one}
    - name: second
      debug: {msg: two}
    - name: third
      debug: {msg: three}
"""


def task(name: str, handler: bool = False) -> TaskInfo:
    return TaskInfo(name=name, module="debug", position="site.yml:1:3", is_handler=handler)


def test_no_yes_and_continue() -> None:
    out = io.StringIO()
    prompt = StepPrompt(io.StringIO("\ny\nc\n"), out)
    assert [prompt(task("a")), prompt(task("b")), prompt(task("c", handler=True)), prompt(task("d"))] == \
        [False, True, True, True]
    assert out.getvalue() == ("Perform task: TASK: a (N)o/(y)es/(c)ontinue: "
                              "Perform task: TASK: b (N)o/(y)es/(c)ontinue: "
                              "Perform task: RUNNING HANDLER: c (N)o/(y)es/(c)ontinue: ")


def test_the_end_of_input_stops_the_run_as_an_interrupt() -> None:
    with pytest.raises(KeyboardInterrupt):
        StepPrompt(io.StringIO(""), io.StringIO())(task("a"))


def run_on_a_terminal(tmp_path: Path, answers: bytes, *args: str) -> tuple[int, str]:
    """The playbook run with a pseudo-terminal as its standard input and output, the answers typed ahead."""
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    env = {**os.environ, "HOME": str(tmp_path), "PROVISIONING_RECORD_RUNS": "false", "PROVISIONING_NOCOLOR": "1"}
    controller, terminal = os.openpty()
    process = subprocess.Popen([str(Path(sys.executable).parent / "provisioning-playbook"), "-i", "localhost,",
                                "-c", "local", "site.yml", *args], stdin=terminal, stdout=terminal, stderr=terminal,
                               cwd=tmp_path, env=env)
    os.close(terminal)
    os.write(controller, answers)
    output = b""
    deadline = time.monotonic() + 300
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 1)
            if ready:
                try:
                    chunk = os.read(controller, 65536)
                except OSError:  # the terminal closed: the command ended
                    break
                if not chunk:
                    break
                output += chunk
        return process.wait(timeout=60), output.decode().replace("\r", "")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(controller)


def test_step_skips_a_declined_task_and_continue_stops_asking(tmp_path: Path) -> None:
    code, output = run_on_a_terminal(tmp_path, b"n\nc\n", "--step")
    assert code == 0, output
    assert "Perform task: TASK: first (N)o/(y)es/(c)ontinue: " in output
    assert "Perform task: TASK: second (N)o/(y)es/(c)ontinue: " in output
    assert "TASK: third (N)o" not in output
    assert "TASK [first]" not in output and '"msg": "one"' not in output
    assert '"msg": "two"' in output and '"msg": "three"' in output
    assert "ok=2 " in output


def test_step_without_a_terminal_is_a_bad_option(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    env = {**os.environ, "HOME": str(tmp_path), "PROVISIONING_RECORD_RUNS": "false"}
    done = subprocess.run([str(Path(sys.executable).parent / "provisioning-playbook"), "-i", "localhost,", "-c",
                           "local", "site.yml", "--step"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          cwd=tmp_path, env=env, timeout=300, check=False)
    assert done.returncode == 5
    assert "--step asks before each task and needs a terminal" in done.stderr
