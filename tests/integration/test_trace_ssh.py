"""The -vvvv trace of runs over SSH on the session's test hosts: how each connection was decided (address, port,
user, configuration file, jump host) and how long it took, agents started for a become user, frames, and that a
become password never shows."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from runner.testenv import TestEnv
from runner.testenv.users import SUDOPW_PASSWORD
from tests.integration.test_ssh_config import address_of, behind_bastion  # noqa: F401 (a fixture, used by name)
from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.hosts


def _playbook(directory: Path, tasks: str) -> Path:
    path = directory / "site.yml"
    path.write_text("- hosts: all\n  gather_facts: false\n  tasks:\n" + textwrap.indent(textwrap.dedent(tasks), "    "))
    return path


def test_vvvv_over_ssh_shows_each_connection_agent_and_frame(testenv: TestEnv, inventory_path: Path,
                                                             tmp_path: Path) -> None:
    playbook = _playbook(tmp_path, """\
        - name: reach
          ping:
        - name: as deploy
          command: id -un
          become: true
          become_user: deploy
        """)
    run = run_playbook(inventory_path, playbook, "-vvvv", subprocess_run=True, report=False)
    assert run.exit_code == 0, run.output
    for name in ("host1", "host2", "host3"):
        address = re.escape(address_of(testenv, name))
        assert re.search(rf"^<{address}> ESTABLISH SSH CONNECTION FOR USER: root$", run.stdout, re.MULTILINE)
        assert re.search(rf"^\[\d+\] <{address}> SSH: {name} is root@{address}:22; config files: [^;]+; "
                         rf"jump host: none; keys: {re.escape(str(testenv.private_key))}; .*"
                         r"User from connection settings", run.output, re.MULTILINE), run.output
        assert re.search(rf"^\[\d+\] <{address}> SSH: connected in [\d.]+ ms \(attempt 1", run.output, re.MULTILINE)
        # each agent's start command, as Ansible's EXEC line shows a command, on stdout as Ansible's: the
        # connecting user's, then deploy's through the escalation (its default flags -H -S -n)
        assert re.search(rf"^<{address}> EXEC /bin/sh -c .*/usr/bin/python3.* -c .*ansible-tmp-", run.stdout,
                         re.MULTILINE)
        assert re.search(rf"^<{address}> EXEC sudo -H -S -n -u deploy /bin/sh -c .*/usr/bin/python3", run.stdout,
                         re.MULTILINE)
        assert re.search(rf"<{address}> AGENT started in [\d.]+ ms: Python 3[\d.]+ at /usr/bin/python3, pid \d+, "
                         r"uid \d+, as deploy$", run.output, re.MULTILINE)
        # The become user's agent is a new one: it gets the module and what it imports.
        assert re.search(rf"<{address}> FRAMES sent load x2 [\d.]+ KiB, run \d+ B; received 3 frames \d+ B; "
                         r"round trip [\d.]+ ms \(task 'as deploy' at ", run.output), run.output
        assert re.search(rf"\[{name}\] TASK TIMING task 'reach' at \S+: ok [\d.]+ ms = templating [\d.]+ ms \+ "
                         r"connection and agent start [\d.]+ ms \+ module", run.output)


def test_vvvv_never_shows_the_become_password(inventory_path: Path, tmp_path: Path) -> None:
    playbook = _playbook(tmp_path, """\
        - name: escalate
          command: id -un
          become: true
        """)
    run = run_playbook(inventory_path, playbook, "-vvvv", "-l", "host1", "-e", "ansible_user=sudopw",
                       "-e", f"ansible_become_password={SUDOPW_PASSWORD}", subprocess_run=True, report=False)
    assert run.exit_code == 0, run.output
    assert "ESTABLISH SSH CONNECTION FOR USER: sudopw" in run.output
    assert re.search(r"EXEC sudo -H -S -p .* -u root /bin/sh -c ", run.output), run.output  # the password is asked
    assert SUDOPW_PASSWORD not in run.output


def test_vvvv_names_the_configuration_file_and_the_jump_host(testenv: TestEnv, tmp_path: Path,
                                                             request: pytest.FixtureRequest) -> None:
    inventory, config = request.getfixturevalue("behind_bastion")
    with inventory.open("a") as handle:
        handle.write(f"      ansible_ssh_common_args: -F {config} -o ProxyJump=bastion "
                     f"-o HostKeyAlias={address_of(testenv, 'host2')}\n")
    run = run_playbook(inventory, _playbook(tmp_path, "- ping:\n"), "-vvvv", subprocess_run=True, report=False)
    assert run.exit_code == 0, run.output
    assert re.search(rf"<host2> SSH: inner is root@host2:22; config files: {re.escape(str(config))}; "
                     r"jump host: bastion; .*ProxyJump from ssh_common_args", run.output), run.output
