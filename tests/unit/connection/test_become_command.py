"""The command that escalates (runner/connection/become.py), as Ansible's sudo and su plugins build it: the
method's program (ansible_become_exe), sudo's start directory (ansible_sudo_chdir), the flags with the
non-interactive ones left to the password, and no user option for an empty become user."""

from __future__ import annotations

import re

import pytest

from runner.connection.become import escalation, needs_terminal, prompt_pattern
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


@pytest.mark.parametrize(("line", "asks"), [
    ("Password: ", True),
    ("ptyto's Password:", True),
    ("Passwort\N{FULLWIDTH COLON}", True),
    ("Mot de passe : ", True),
    ("Last login: never", False),
    ("the Password: is in the middle", False),
])
def test_su_prompts_in_the_languages_su_speaks(line: str, asks: bool) -> None:
    assert bool(re.match(prompt_pattern(BecomeSettings(method="su")), line, re.IGNORECASE)) is asks


def test_the_prompts_can_be_replaced_and_only_su_with_a_password_needs_a_terminal() -> None:
    pattern = prompt_pattern(BecomeSettings(method="su", prompts=("Kennwort",)))
    assert re.match(pattern, "Kennwort:") and not re.match(pattern, "Password:")
    assert needs_terminal(BecomeSettings(method="su", password="pw"))
    assert not needs_terminal(BecomeSettings(method="su")) and not needs_terminal(BecomeSettings(password="pw"))
    settings = ConnectionSettings.from_host_vars("web1", {"ansible_su_prompt_l10n": "Kennwort"})
    assert settings.su_prompts == ("Kennwort",)
