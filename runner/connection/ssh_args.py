"""OpenSSH command-line arguments (``ssh_args``, ``ssh_common_args``, ``ssh_extra_args``) read as OpenSSH reads them.

An argument string is split with shlex and its flags are turned into the OpenSSH options they stand for
(``-p 2222`` is ``Port=2222``, ``-J bastion`` is ``ProxyJump=bastion``), keeping their order: as in OpenSSH, the
first value given for an option is the one used. What a flag or option means for the connection is decided in
``runner.connection.ssh_options``; here only what cannot be honoured at all is refused, with its name, so that
nothing the user wrote is silently ignored. Each distinct string is parsed once per process.
"""

from __future__ import annotations

import functools
import re
import shlex
from dataclasses import dataclass

from runner.errors import ConnectionFailure

# An option's keyword ends at the first "=" or blank, as OpenSSH reads it (the value may hold both).
_KEYWORD = re.compile(r"\s*([A-Za-z0-9]+)\s*(?:=\s*|\s+)")
# Flags that take a value, and the OpenSSH option each one sets ("" for -o and -F, handled apart).
_VALUE_FLAGS = {"o": "", "F": "", "p": "Port", "l": "User", "i": "IdentityFile", "J": "ProxyJump", "c": "Ciphers",
                "m": "MACs", "b": "BindAddress"}
# Flags without a value, as the options they stand for.
_SWITCHES = {
    "C": ("Compression", "yes"),
    "4": ("AddressFamily", "inet"),
    "6": ("AddressFamily", "inet6"),
    "A": ("ForwardAgent", "yes"),
    "a": ("ForwardAgent", "no"),
    "q": ("LogLevel", "QUIET"),
    "v": ("LogLevel", "VERBOSE"),
    "T": ("RequestTTY", "no"),  # no terminal: what the agent's channel always is
    "x": ("ForwardX11", "no"),
}
_FLAG_MEANING = {"t": "a terminal (the agent speaks binary frames)", "X": "X11 forwarding", "Y": "X11 forwarding",
                 "N": "no remote command", "f": "going to the background", "n": "no stdin", "G": "printing the "
                 "configuration", "M": "connection sharing (one connection per host is held for the run anyway)",
                 "S": "a control socket (one connection per host is held for the run anyway)",
                 "L": "port forwarding", "R": "port forwarding", "D": "port forwarding", "W": "stdio forwarding",
                 "w": "tunnel devices", "E": "a log file", "e": "an escape character", "s": "a subsystem",
                 "K": "GSSAPI delegation", "k": "GSSAPI delegation", "g": "port forwarding", "B": "a bind interface",
                 "I": "a PKCS#11 library", "Q": "queries", "V": "printing the version", "y": "syslog logging",
                 "O": "control commands", "P": "tags"}


class SSHArgumentError(ConnectionFailure):
    """An SSH argument or option that cannot be honoured: the host is unreachable, and the message names it."""


@dataclass(frozen=True)
class SSHArguments:
    """What one argument string asks for: OpenSSH options in the order given, and ``-F`` configuration files."""

    options: tuple[tuple[str, str], ...] = ()
    config_files: tuple[str, ...] = ()


NO_ARGUMENTS = SSHArguments()


@functools.lru_cache(maxsize=256)
def parse_ssh_args(text: str | None, source: str) -> SSHArguments:
    """The options of ``text`` (``source`` names where it comes from, for messages: "ssh_common_args")."""
    if not text or not text.strip():
        return NO_ARGUMENTS
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise SSHArgumentError(f"{source}: cannot split {text!r}: {exc}") from None
    options: list[tuple[str, str]] = []
    config_files: list[str] = []
    position = 0
    while position < len(words):
        word = words[position]
        position += 1
        if not word.startswith("-") or word == "-":
            raise SSHArgumentError(f"{source}: '{word}' is not an ssh option (only options go here; the host and "
                                   "command are provisioning's)")
        letters = word[1:]
        while letters:
            flag, letters = letters[0], letters[1:]
            if flag in _VALUE_FLAGS:
                if not letters:
                    if position >= len(words):
                        raise SSHArgumentError(f"{source}: ssh option -{flag} needs a value")
                    letters, position = words[position], position + 1
                value, letters = letters, ""
                if flag == "o":
                    options.append(split_option(value, source))
                elif flag == "F":
                    config_files.append(value)
                else:
                    options.append((_VALUE_FLAGS[flag], value))
            elif flag in _SWITCHES:
                options.append(_SWITCHES[flag])
            else:
                meaning = _FLAG_MEANING.get(flag, "an unknown flag")
                raise SSHArgumentError(f"{source}: ssh option -{flag} ({meaning}) is not supported")
    return SSHArguments(tuple(options), tuple(config_files))


def split_option(text: str, source: str) -> tuple[str, str]:
    """``Keyword=value`` or ``Keyword value`` (as ``-o`` takes it) as (keyword, value)."""
    match = _KEYWORD.match(text)
    keyword, value = (match.group(1), text[match.end():].strip()) if match else ("", "")
    if not keyword or not value:
        raise SSHArgumentError(f"{source}: ssh option -o '{text}' needs the form Keyword=value")
    return keyword, value
