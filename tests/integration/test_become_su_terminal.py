"""su with a password (runner/connection/become.py, runner/agent/terminal.py): a raw task, and the agent that runs
modules, start on a pseudo-terminal of the host, which answers su's password prompt, as Ansible does. A real user
with a password on a test host is become from an unprivileged one (root's su would never ask): through
``ansible_become_exe``, a wrapper that runs su as that user, as ansible-core's own test does it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import run_playbook_text

pytestmark = pytest.mark.hosts

# The SHA-512 crypt hash of "Pty-s3cret!" (openssl passwd -6 -salt ptysalt)
PASSWORD_HASH = "$6$ptysalt$ISVwEVdyqKJtm/6wTa6uYAW.CRb80fb5tIYW0AXQXiPexmd/SdfeXvp1jLq2CJqsUYDseQ2RxfkW5mpa4TeDd/"

PLAYBOOK = """
- hosts: host1
  gather_facts: false
  tasks:
    - user: {name: ptyfrom, state: present}
    - user: {name: ptyto, state: present, password: 'HASH'}
    - copy:
        dest: /tmp/provisioning-su-as-ptyfrom
        mode: "0755"
        content: |
          #!/bin/sh
          exec runuser -u ptyfrom -- su "$@"
    - name: as the su user
      vars:
        ansible_become: true
        ansible_become_method: su
        ansible_become_exe: /tmp/provisioning-su-as-ptyfrom
        ansible_become_user: ptyto
        ansible_become_password: Pty-s3cret!
      block:
        - name: whoami
          raw: whoami; echo "to stderr" >&2
          register: who
        - name: a module as the su user
          command: whoami
        - name: a file through the agent's frames
          copy: {dest: /tmp/provisioning-ptyto.txt, content: "{{ range(0, 40000) | join(',') }}"}
        - name: its size
          command: wc -c /tmp/provisioning-ptyto.txt
        - name: a wrong password

          raw: exit 9
          vars: {ansible_become_password: not-it}
          ignore_errors: true
        - name: a wrong password for a module
          command: whoami
          vars: {ansible_become_password: not-it-either}
          ignore_errors: true
        - name: no python for the terminal
          raw: echo never
          vars: {ansible_python_interpreter: /nonexistent/python3}
          ignore_errors: true
        - name: a prompt in another language
          raw: echo never
          vars: {ansible_su_prompt_l10n: [Passwort], ansible_timeout: 2}
          ignore_unreachable: true
      always:
        - vars: {ansible_become: false}
          block:
            - user: {name: ptyto, state: absent, remove: true}
            - user: {name: ptyfrom, state: absent, remove: true}
            - file: {path: /tmp/provisioning-su-as-ptyfrom, state: absent}
            - file: {path: /tmp/provisioning-ptyto.txt, state: absent}
""".replace("HASH", PASSWORD_HASH)


def test_su_with_a_password_answers_its_prompt_on_a_terminal(inventory_path: Path, tmp_path: Path) -> None:
    run = run_playbook_text(inventory_path, PLAYBOOK, tmp_path)
    assert run.stats["host1"]["unreachable"] == 0, run.output  # the last one's was ignored
    who = run.task("whoami")["host1"]
    assert who["rc"] == 0, run.output
    assert who["stdout"] == "ptyto\nto stderr\n"  # a terminal's output: stdout and stderr together, as in Ansible
    assert run.task("a wrong password")["host1"]["msg"] == "Incorrect su password"
    # modules too: the agent starts on the terminal, switched to raw mode for its frames
    assert run.task("a module as the su user")["host1"]["stdout"] == "ptyto"
    size = len(",".join(str(number) for number in range(40000)))
    assert run.task("its size")["host1"]["stdout"] == f"{size} /tmp/provisioning-ptyto.txt"
    assert run.task("a wrong password for a module")["host1"]["msg"] == "Incorrect su password"
    assert "there is none (/nonexistent/python3)" in run.task("no python for the terminal")["host1"]["msg"]
    unasked = run.task("a prompt in another language")["host1"]
    assert unasked["unreachable"] is True
    assert unasked["msg"].startswith("Timed out waiting for become success or become password prompt")
