"""provisioning-console read from a pipe: each line runs as an ad-hoc command, its commands change the next run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from runner.cli.console import split_options

BIN = Path(sys.executable).parent


def console(tmp_path: Path, lines: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp_path), "PROVISIONING_RECORD_RUNS": "false"}
    return subprocess.run([str(BIN / "provisioning-console"), *args], input=lines, cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_piped_lines_run_as_ad_hoc_commands_on_the_current_hosts(tmp_path: Path) -> None:
    (tmp_path / "hosts").write_text("[web]\nlocalhost ansible_connection=local\n", encoding="utf-8")
    result = console(tmp_path, "debug var=inventory_hostname\nforks 2\nbecome_user nobody\n!echo from-shell\n"
                               "cd nothing-matches\nlist\n", "{{ 'web' }}", "-i", "hosts", "-e", "x=1")
    assert result.returncode == 0, result.stderr
    prompts = [line for line in result.stdout.splitlines() if "@{{ 'web' }} (1)" in line]
    assert prompts and prompts[0].split("$")[0].endswith("[f:5]")
    assert '"inventory_hostname": "localhost"' in result.stdout
    assert "[f:2]" in result.stdout and "from-shell" in result.stdout
    assert "no host matched 'nothing-matches'" in result.stdout
    assert result.stdout.rstrip().endswith("Provisioning console was exited.")


def test_the_console_manages_its_own_options_and_passes_the_others_on() -> None:
    managed, passed_on = split_options(["-i", "hosts", "-f", "3", "-b", "-vv", "--become-user=admin", "-e", "a=1"])
    assert managed == {"forks": "3", "become": True, "verbosity": 2, "become_user": "admin"}
    assert passed_on == ["-i", "hosts", "-e", "a=1"]
