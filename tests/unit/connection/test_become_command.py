"""The command that escalates (runner/connection/become.py), as Ansible's sudo and su plugins build it: the
method's program (ansible_become_exe), sudo's start directory (ansible_sudo_chdir), the flags with the
non-interactive ones left to the password, and no user option for an empty become user."""

from __future__ import annotations

import pytest

from runner.connection.become import escalation
from runner.connection.settings import BecomeSettings, ConnectionSettings


def test_sudo_by_default() -> None:
    assert escalation(BecomeSettings()) == "sudo -H -S -n -u root"


def test_the_become_exe_replaces_the_methods_program() -> None:
    assert escalation(BecomeSettings(exe="/tmp/my sudo")) == "'/tmp/my sudo' -H -S -n -u root"
    assert escalation(BecomeSettings(method="su", user="app", exe="/bin/mysu")) == "/bin/mysu -s /bin/sh app"


def test_sudo_chdir_changes_directory_before_sudo() -> None:
    assert escalation(BecomeSettings(chdir="/srv/a b")) == "cd '/srv/a b' && sudo -H -S -n -u root"


def test_an_empty_become_user_is_the_methods_default() -> None:
    assert escalation(BecomeSettings(user="")) == "sudo -H -S -n"
    assert escalation(BecomeSettings(method="su", user="")) == "su -s /bin/sh"


@pytest.mark.parametrize(("flags", "kept"), [
    ("-H -S -n", "-H"),
    ("--set-home --stdin --non-interactive --intermediate-user x", "--set-home --intermediate-user x"),
    ("-HSn -E", "-H -E"),
    ("-Sn", "-H"),  # nothing left: sudo's usual -H
])
def test_flags_leave_reading_the_password_to_the_password(flags: str, kept: str) -> None:
    assert escalation(BecomeSettings(flags=flags, password="pw"), "P") == f"sudo {kept} -S -p P -u root"


def test_host_variables_set_the_program_and_directory() -> None:
    settings = ConnectionSettings.from_host_vars("web1", {"ansible_become": True, "ansible_become_exe": "/x/sudo",
                                                          "ansible_sudo_chdir": "/"})
    become = settings.become_settings()
    assert become is not None and (become.exe, become.chdir) == ("/x/sudo", "/")
    assert become.key != BecomeSettings().key  # another program is another escalation, with an agent of its own
