"""Ad-hoc commands run controller-side actions through the same action layer as playbooks: debug, set_fact and
the like answer without contacting the host (its port here is closed), and the actions that only steer a
playbook are refused up front with the reason."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.scripts import script


@pytest.fixture
def inventory(tmp_path: Path) -> Path:
    path = tmp_path / "hosts.ini"
    path.write_text("web1 ansible_host=127.0.0.1 ansible_port=1 ansible_connection=ssh who=web-one\n")
    return path


def adhoc(inventory: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([script("provisioning"), "web1", "-i", str(inventory), *args], capture_output=True,
                          text=True, timeout=120, cwd=inventory.parent)


def test_debug_shows_its_message_as_ansible_does(inventory: Path) -> None:
    run = adhoc(inventory, "-m", "debug", "-a", "msg=hi")
    assert (run.returncode, run.stdout) == (0, 'web1 | SUCCESS => {\n    "msg": "hi"\n}\n'), run.stderr
    run = adhoc(inventory, "-m", "ansible.builtin.debug", "-a", "var=who", "-o")
    assert (run.returncode, run.stdout) == (0, 'web1 | SUCCESS => {"who": "web-one"}\n'), run.stderr


def test_debug_verbosity_is_compared_with_the_commands(inventory: Path) -> None:
    assert "SKIPPED" in adhoc(inventory, "-m", "debug", "-a", "msg=hi verbosity=1").stdout
    assert '"msg": "hi"' in adhoc(inventory, "-m", "debug", "-a", "msg=hi verbosity=1", "-v").stdout


def test_set_fact_and_fail_report_like_any_module(inventory: Path) -> None:
    run = adhoc(inventory, "-m", "set_fact", "-a", "x=1", "-o")
    assert (run.returncode, run.stdout) == (0, 'web1 | SUCCESS => {"ansible_facts": {"x": "1"}, "changed": false}\n')
    run = adhoc(inventory, "-m", "fail", "-a", "msg=boom", "-o")
    assert run.returncode == 2 and '"msg": "boom"' in run.stdout


def test_include_vars_shows_the_files_variables_and_hides_an_encrypted_files(inventory: Path) -> None:
    # as ansible-core 2.19: the variables are shown (nothing keeps them); once a file is encrypted, nothing is
    (inventory.parent / "vars").mkdir()
    (inventory.parent / "vars" / "plain.yml").write_text("porter: cable\n")
    run = adhoc(inventory, "-m", "include_vars", "-a", "dir=vars", "-o")
    assert run.returncode == 0 and '"ansible_facts": {"porter": "cable"}' in run.stdout, run.stderr
    password = inventory.parent / "pass"
    password.write_text("secret\n")
    encrypted = subprocess.run([script("provisioning-vault"), "encrypt", "--vault-password-file", str(password),
                                "--output", "-", "-"], input="sealed: value\n", text=True, check=True,
                               capture_output=True).stdout
    (inventory.parent / "vars" / "sealed.yml").write_text(encrypted)
    run = adhoc(inventory, "-m", "include_vars", "-a", "dir=vars", "--vault-password-file", str(password))
    assert run.returncode == 0 and "output has been hidden" in run.stdout, run.stderr
    assert "cable" not in run.stdout and "value" not in run.stdout


def test_meta_runs_as_the_task_of_a_play_and_shows_nothing(inventory: Path) -> None:
    # as ansible-core's ad-hoc meta: the request is made to the play of the one task, with no output of its own
    run = adhoc(inventory, "-m", "meta", "-a", "noop")
    assert (run.returncode, run.stdout) == (0, ""), run.stderr
    bogus = adhoc(inventory, "-m", "meta", "-a", "bogus")
    assert bogus.returncode != 0 and "expected a meta action" in bogus.stderr
    assert "Traceback" not in bogus.stderr


def test_an_argument_that_renders_to_omit_is_left_out_as_in_a_playbook(inventory: Path) -> None:
    # debug's msg and var exclude each other: a msg that is omitted leaves var alone, as in ansible-core
    run = adhoc(inventory, "-m", "debug", "-a", "msg={{ nothing | default(omit) }} var=who", "-o")
    assert (run.returncode, run.stdout) == (0, 'web1 | SUCCESS => {"who": "web-one"}\n'), run.stderr
    # on a host too (the local one): chdir omitted, so the command runs where it would without it
    local = subprocess.run([script("provisioning"), "localhost", "-i", "localhost,", "-c", "local", "-m", "command",
                            "-a", "echo ran chdir={{ nowhere | default(omit) }}", "-o"], capture_output=True,
                           text=True, timeout=120, cwd=inventory.parent)
    assert local.returncode == 0 and "(stdout) ran" in local.stdout, local.stdout + local.stderr
