"""Wrapping the agent's start command for privilege escalation (sudo, su).

The wrapped command prints a marker on stdout once the new user's shell runs, so the client knows the
password (if any) was accepted before it sends anything else on stdin.
"""

from __future__ import annotations

import re
import secrets
import shlex

from runner.connection.settings import BecomeSettings
from runner.errors import ConnectionFailure

SUPPORTED_METHODS = ("sudo", "su")


class BecomeFailure(Exception):
    """Escalation failed (wrong password, not allowed): the task fails, the host stays reachable."""


# The words su's password prompt starts with in the languages it speaks (``ansible_su_prompt_l10n`` replaces
# them), as Ansible's su plugin knows them.
SU_PROMPTS = ("Password", "암호", "パスワード", "Adgangskode", "Contraseña", "Contrasenya", "Hasło", "Heslo",
              "Jelszó", "Lösenord", "Mật khẩu", "Mot de passe", "Parola", "Parool", "Pasahitza", "Passord",
              "Passwort", "Salasana", "Sandi", "Senha", "Wachtwoord", "ססמה", "Лозинка", "Парола", "Пароль",
              "गुप्तशब्द", "शब्दकूट", "సంకేతపదము", "හස්පදය", "密码", "密碼", "口令")


def needs_terminal(become: BecomeSettings) -> bool:
    """su asks for its password on a terminal only: with a password it runs on a pseudo-terminal of the host."""
    return become.method == "su" and bool(become.password)


def prompt_pattern(become: BecomeSettings) -> str:
    """The regular expression a terminal line that asks for the password matches at its start (Ansible's: an
    optional "user's ", one of the prompts, then a colon, plain or full-width)."""
    prompts = become.prompts if become.prompts is not None else SU_PROMPTS
    return r"(\w+'s )?(" + "|".join(re.escape(prompt) for prompt in prompts) + ") ?(:|\N{FULLWIDTH COLON}) ?"


# Before an agent's success marker on a terminal: the agent's frames pass through it byte for byte from then on
RAW_TERMINAL = "stty raw -echo -iexten"


def wrap(command: str, become: BecomeSettings, *, on_terminal: bool = False, before_marker: str = ""
         ) -> tuple[str, str, str]:
    """Return (wrapped command, success marker, password prompt) for ``command`` run as ``become.user``;
    ``on_terminal``: it runs on a pseudo-terminal, where su may ask for a password; ``before_marker``: what the
    new user's shell runs before it prints the marker."""
    nonce = secrets.token_hex(8)
    marker = f"BECOME-SUCCESS-{nonce}"
    prompt = f"[provisioning become password {nonce}]"
    first = f"{before_marker}; " if before_marker else ""
    inner = "/bin/sh -c " + shlex.quote(f"{first}echo {marker}; {command}")
    if become.method == "su":
        return f"{escalation(become, prompt, on_terminal=on_terminal)} -c {shlex.quote(inner)}", marker, prompt
    return f"{escalation(become, prompt)} {inner}", marker, prompt


def escalation(become: BecomeSettings, prompt: str = "", *, on_terminal: bool = False) -> str:
    """The command that becomes ``become.user`` (``sudo -H -S -n -u root``), before the command it runs."""
    # An empty become user is none: the method's own default (root), as Ansible leaves the option out.
    if become.method == "sudo":
        flags = _sudo_flags(become.flags)
        # -S as in Ansible's default flags: sudo reads a password from stdin, never from a terminal; -n without a
        # password, so that one asked for fails at once instead of waiting.
        password_flags = f"-S -p {shlex.quote(prompt)}" if become.password else "-S -n"
        user = f" -u {shlex.quote(become.user)}" if become.user else ""
        command = f"{shlex.quote(become.exe or 'sudo')} {flags} {password_flags}{user}"
        # ansible_sudo_chdir: the directory sudo starts in (a missing one fails the task, as in Ansible)
        return f"cd {shlex.quote(become.chdir)} && {command}" if become.chdir else command
    if become.method == "su":
        if become.password and not on_terminal:
            raise ConnectionFailure("su with a password needs a terminal")
        flags = f"{become.flags} " if become.flags else ""
        user = f" {shlex.quote(become.user)}" if become.user else ""
        return f"{shlex.quote(become.exe or 'su')} {flags}-s /bin/sh{user}"
    raise ConnectionFailure(
        f"unknown become_method '{become.method}' (expected one of: {', '.join(SUPPORTED_METHODS)})")


_STDIN_FLAGS = ("-S", "-n", "--stdin", "--non-interactive")


def _sudo_flags(flags: str) -> str:
    """The become flags for sudo, "-H" when none are given. ``-S`` and ``-n`` (long or in a cluster such as
    ``-HSn``) are left out: whether sudo reads a password from stdin or must not ask for one follows from whether
    a password was given (Ansible drops ``-n`` the same way), and Ansible's usual ``-H -S -n`` must not make a
    run with -K fail."""
    kept: list[str] = []
    for flag in shlex.split(flags):
        if re.fullmatch(r"-[A-Za-z]+", flag):
            flag = "-" + flag[1:].replace("S", "").replace("n", "")
        if flag not in (*_STDIN_FLAGS, "-"):
            kept.append(flag)
    return " ".join(shlex.quote(flag) for flag in kept) or "-H"


def explain_failure(stderr: str, become: BecomeSettings) -> str:
    text = stderr.strip()
    lowered = text.lower()
    if "a password is required" in lowered or "a terminal is required" in lowered:
        return f"Missing {become.method} password (use -K or become_password)"
    if "incorrect password" in lowered or "sorry, try again" in lowered or "authentication failure" in lowered:
        return f"Incorrect {become.method} password"
    if "not in the sudoers" in lowered or "is not allowed" in lowered:
        return f"{become.method} to {become.user} is not allowed: {text.splitlines()[-1]}"
    if "unknown user" in lowered or "does not exist" in lowered:
        return f"{become.method}: user {become.user} does not exist"
    if "command not found" in lowered and become.method in lowered:
        return f"{become.method} is not installed on the host"
    return f"privilege escalation with {become.method} failed: {text or 'no message'}"
