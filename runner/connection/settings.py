"""How to reach one host: built from its variables (``ansible_*`` or ``provisioning_*``) over config defaults."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

# ansible-core's default remote_tmp: where a host's temporary directories go
REMOTE_TMP = "~/.ansible/tmp"

# Host names reached over the local connection when nothing sets their address or connection.
LOCAL_NAMES = ("localhost", "127.0.0.1")

# Variable name suffixes accepted with either prefix, and the setting each one feeds.
_VARIABLES = {
    "host": "address",
    "ssh_host": "address",
    "port": "port",
    "ssh_port": "port",
    "user": "user",
    "ssh_user": "user",
    "password": "password",
    "ssh_pass": "password",
    "ssh_password": "password",
    "private_key_file": "private_key_file",
    "ssh_private_key_file": "private_key_file",
    "python_interpreter": "interpreter",
    "interpreter_python_fallback": "interpreter_fallback",
    "connection": "connection",
    "host_key_checking": "host_key_checking",
    "ssh_host_key_checking": "host_key_checking",
    "ssh_known_hosts_file": "known_hosts_file",
    "known_hosts_file": "known_hosts_file",
    "ssh_timeout": "timeout",
    "timeout": "timeout",
    "ssh_proxy_jump": "proxy_jump",
    "ssh_args": "ssh_args",
    "ssh_common_args": "ssh_common_args",
    "ssh_extra_args": "ssh_extra_args",
    "ssh_keepalive_interval": "keepalive_interval",
    "ssh_keepalive_count_max": "keepalive_count_max",
    "become": "become",
    "become_user": "become_user",
    "become_method": "become_method",
    "become_flags": "become_flags",
    "become_exe": "become_exe",
    "sudo_chdir": "sudo_chdir",
    "su_prompt_l10n": "su_prompts",
    "remote_tmp": "remote_tmp",
    "become_password": "become_password",
    "become_pass": "become_password",
    "sudo_pass": "become_password",
}
PREFIXES = ("ansible_", "provisioning_")
# Every variable name that changes how a host is reached, and the setting it feeds: the executor picks these out
# of each variable source.
SETTING_OF = {prefix + suffix: setting for prefix in PREFIXES for suffix, setting in _VARIABLES.items()}

_TEXT_SETTINGS = frozenset(["user", "password", "become_password", "become_flags", "become_exe", "sudo_chdir",
                            "ssh_args", "ssh_common_args", "ssh_extra_args", "remote_tmp"])


class ConnectionVariableError(ValueError):
    """A connection variable whose value cannot be what it sets, such as a port that is not a port number."""


def _port(value: Any) -> int:
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError
    port = int(value)
    if not 1 <= port <= 65535:
        raise ValueError
    return port


def _seconds(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError
    seconds = float(value)
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError
    return seconds


def _interval(value: Any) -> float:
    """Seconds, where 0 means never (a keepalive turned off)."""
    return 0.0 if not isinstance(value, bool) and float(value) == 0 else _seconds(value)


def _count(value: Any) -> int:
    if isinstance(value, bool) or (isinstance(value, float) and not value.is_integer()):
        raise ValueError
    count = int(value)
    if count < 1:
        raise ValueError
    return count


def _prompts(value: Any) -> tuple[str, ...]:
    """A list of prompts; one written alone is a list of one, as Ansible reads a list option."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ValueError


def _names(value: Any) -> tuple[str, ...]:
    """A list of names, or one string of them separated by commas, as Ansible reads a list option."""
    if isinstance(value, str):
        return tuple(name.strip() for name in value.split(",") if name.strip())
    if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise ValueError


def _connection_plugin(value: Any) -> str:
    """A connection's short name: Ansible's builtin plugins may be named in full (``ansible.builtin.ssh``)."""
    if not isinstance(value, str):
        raise ValueError
    for prefix in ("ansible.builtin.", "ansible.legacy."):
        if value.startswith(prefix):
            return value[len(prefix):]
    return value


def resolved_connection_name(name: str) -> str:
    """A connection plugin's full name, as ansible-core resolves it: ``local`` and ``ansible.legacy.local`` are
    ``ansible.builtin.local``; a collection's keeps its own."""
    short = _connection_plugin(name)
    return short if "." in short else f"ansible.builtin.{short}"


# Settings with a type, the function that reads one, and what a message says is expected.
_TYPED: dict[str, tuple[Callable[[Any], Any], str]] = {
    "connection": (_connection_plugin, "the name of a connection plugin"),
    "port": (_port, "a port number from 1 to 65535"),
    "timeout": (_seconds, "a number of seconds greater than 0"),
    "keepalive_interval": (_interval, "a number of seconds (0: no keepalive)"),
    "keepalive_count_max": (_count, "a whole number of at least 1"),
    "su_prompts": (_prompts, "a list of prompts"),
    "interpreter_fallback": (_names, "a list of interpreter names"),
}


def typed_connection_value(name: str, value: Any) -> Any:
    """``value`` as the connection variable ``name`` uses it (an int for a port, seconds for a timeout); other
    variables are returned as they are. Raises ``ConnectionVariableError`` when it cannot be one."""
    setting = SETTING_OF.get(name)
    if setting not in _TYPED:
        return value
    read, expected = _TYPED[setting]
    try:
        return read(value)
    except (TypeError, ValueError, OverflowError):
        raise ConnectionVariableError(f"{name} must be {expected}, got {value!r}") from None


def check_connection_variable(name: str, value: Any) -> None:
    """Raise ``ConnectionVariableError`` for a typed connection variable whose written value is not of its type.
    A template is left alone: its value is known only when a task renders it."""
    try:
        typed_connection_value(name, value)
    except ConnectionVariableError:
        from runner.templating.environment import is_template  # only for a value already wrong: Jinja2 is heavy

        if not is_template(value):
            raise


@dataclass(frozen=True)
class BecomeSettings:
    """Privilege escalation for one task: who to become and how."""

    user: str = "root"
    method: str = "sudo"  # sudo or su
    password: str | None = None
    flags: str = ""
    exe: str | None = None  # the become method's program (ansible_become_exe), the method's name when None
    chdir: str | None = None  # sudo: where to change directory before it runs (ansible_sudo_chdir)
    prompts: tuple[str, ...] | None = None  # su's password prompts (ansible_su_prompt_l10n); its usual ones if None

    @property
    def key(self) -> str:
        """Which agent this escalation starts: another program or directory is another escalation."""
        if self.exe is None and self.chdir is None:
            return f"{self.method}:{self.user}"
        return f"{self.method}:{self.user}:{self.exe or ''}:{self.chdir or ''}"


@dataclass(frozen=True)
class ConnectionSettings:
    """Everything needed to open a connection to one host and start its agent."""

    name: str
    address: str
    connection: str = "ssh"  # ssh or local
    port: int | None = None  # None: the OpenSSH configuration's, else 22
    user: str | None = None
    password: str | None = None
    private_key_file: str | None = None
    host_key_checking: bool = True
    known_hosts_file: str | None = None
    timeout: float = 10.0
    proxy_jump: str | None = None
    # OpenSSH command-line arguments, honoured as ssh would (runner.connection.ssh_options).
    ssh_args: str | None = None
    ssh_common_args: str | None = None
    ssh_extra_args: str | None = None
    # SSH keepalive: None means the OpenSSH configuration's ServerAlive*, else provisioning's default.
    keepalive_interval: float | None = None
    keepalive_count_max: int | None = None
    interpreter: str | None = None
    # The names interpreter discovery tries (ansible_interpreter_python_fallback); None: Ansible's list. Only
    # when the interpreter is discovered: a configured one makes it None, so it never splits the agents.
    interpreter_fallback: tuple[str, ...] | None = None
    # The configuration's discovery mode (auto, auto_silent...): which warnings a discovery gives when a task's
    # variables name none. It never decides the agent, so it never splits the sessions either.
    interpreter_mode: str = field(default="auto", compare=False)
    connect_retries: int = 3
    become: bool = False
    become_user: str = "root"
    become_method: str = "sudo"
    become_password: str | None = None
    become_flags: str = ""
    become_exe: str | None = None
    sudo_chdir: str | None = None
    su_prompts: tuple[str, ...] | None = None
    # Where temporary files go on the host (ansible_remote_tmp, ``~`` the home of the user the agent runs as): the
    # agent's directory and the modules' own. It never splits the sessions: a task's own goes with its module run.
    remote_tmp: str = field(default=REMOTE_TMP, compare=False)

    def become_settings(self) -> BecomeSettings | None:
        if not self.become:
            return None
        return BecomeSettings(user=self.become_user, method=self.become_method, password=self.become_password,
                              flags=self.become_flags, exe=self.become_exe or None,
                              chdir=self.sudo_chdir or None, prompts=self.su_prompts)

    @classmethod
    def from_host_vars(cls, name: str, host_vars: Mapping[str, Any], defaults: ConnectionSettings | None = None
                       ) -> ConnectionSettings:
        """Apply a host's connection variables over ``defaults`` (from config and the command line).

        ``provisioning_*`` wins over ``ansible_*`` when a host has both; localhost without an address is local.
        A port or timeout that is not one raises ``ConnectionVariableError`` (a ``ValueError``).
        """
        # Imported here: the connection keeper builds settings from what a run sends, never from host variables,
        # and spares its start the configuration's and the module library's imports.
        from modules._utils import to_bool
        from runner.config.values import DISCOVER_INTERPRETER

        base = defaults or cls(name=name, address=name)
        values: dict[str, Any] = {}
        for prefix in PREFIXES:
            for suffix, setting in _VARIABLES.items():
                key = prefix + suffix
                if key in host_vars and host_vars[key] is not None:
                    values[setting] = typed_connection_value(key, host_vars[key])
        for flag in ("host_key_checking", "become"):
            if flag in values:
                values[flag] = to_bool(values[flag], flag)
        if str(values.get("interpreter", "")).strip() in DISCOVER_INTERPRETER:
            values["interpreter"] = None  # ansible_python_interpreter: auto, as the configuration's: discover it
        if values.get("interpreter", base.interpreter) is not None:
            values["interpreter_fallback"] = None
        values.setdefault("address", name)
        if name in LOCAL_NAMES and "connection" not in values and values["address"] == name:
            values["connection"] = "local"
        values["name"] = name
        changes: dict[str, Any] = {k: str(v) if k in _TEXT_SETTINGS else v for k, v in values.items()}
        return replace(base, **changes)
