"""Where and how to connect to one host over SSH: its settings, its SSH arguments and the user's OpenSSH
configuration, turned into asyncssh's connect options.

Precedence is OpenSSH's rule (the first value given for an option wins) applied in Ansible's order: ``ssh_args``,
then the connection settings (``ansible_port``, ``ansible_user``, the key, the timeout, the keepalive ...), then
``ssh_common_args``, then ``ssh_extra_args``, then the OpenSSH configuration files (``-F FILE``, else
``~/.ssh/config``, read by asyncssh with its ``Host``, ``Match`` and ``Include``), and last provisioning's own
defaults (the keepalive, the cipher preference). An option that cannot be honoured raises ``SSHArgumentError``
naming it: the host is unreachable rather than connected some other way than the user asked.
"""

from __future__ import annotations

import getpass
import os
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from asyncssh.config import SSHClientConfig, SSHConfig  # asyncssh's own OpenSSH config reader (Host, Match, Include)

from runner.connection.settings import ConnectionSettings
from runner.connection.ssh_args import SSHArgumentError, parse_ssh_args

DEFAULT_PORT = 22
# A dead peer (a frozen host, a black-holed network) is found by SSH keepalives, not TCP: a stopped host's kernel
# still acknowledges TCP. The connection is given up after COUNT_MAX unanswered probes, INTERVAL seconds apart
# after the last packet received: between 30 and 40 seconds.
DEFAULT_KEEPALIVE_INTERVAL = 10.0
DEFAULT_KEEPALIVE_COUNT_MAX = 3
# AES-GCM first: asyncssh's ChaCha20-Poly1305 builds cipher objects per packet in Python, GCM costs a fraction of
# that per task; the others stay as fallbacks for servers that lack GCM.
PREFERRED_CIPHERS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "chacha20-poly1305@openssh.com",
                     "aes128-ctr", "aes192-ctr", "aes256-ctr")
_COMPRESSION = {True: "zlib@openssh.com,zlib,none", False: "none"}
_FAMILIES = {"any": socket.AF_UNSPEC, "inet": socket.AF_INET, "inet6": socket.AF_INET6}
_TRUE, _FALSE = ("yes", "true"), ("no", "false")


@dataclass
class SSHTarget:
    """The address to give asyncssh, and its options; ``port`` and ``user`` are for messages and the trace (the
    configuration files may set them), as is ``sources``: where each option given came from (``ssh_args``,
    ``connection settings``, ...; the OpenSSH configuration or a default for the port and the user)."""

    host: str
    port: int
    options: dict[str, Any] = field(default_factory=dict)
    user: str = ""
    sources: dict[str, str] = field(default_factory=dict)


@dataclass
class _Resolution:
    """Options being resolved: the first value of each keyword, and every identity file (OpenSSH adds them up)."""

    # lower keyword -> (keyword, value, where it was given)
    values: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    identity_files: list[str] = field(default_factory=list)

    def add(self, options: Iterable[tuple[str, str]], source: str) -> None:
        for keyword, value in options:
            lower = keyword.lower()
            if lower == "identityfile":
                self.identity_files.append(value)
            else:
                self.values.setdefault(lower, (keyword, value, source))


def _settings_options(s: ConnectionSettings) -> list[tuple[str, str]]:
    """The connection settings as the OpenSSH options Ansible passes for them."""
    options: list[tuple[str, str]] = []
    if not s.host_key_checking:
        options.append(("StrictHostKeyChecking", "no"))
    if s.port is not None:
        options.append(("Port", str(s.port)))
    if s.private_key_file:
        options.append(("IdentityFile", s.private_key_file))
    if s.user:
        options.append(("User", s.user))
    options.append(("ConnectTimeout", str(s.timeout)))
    if s.known_hosts_file:
        options.append(("UserKnownHostsFile", s.known_hosts_file))
    if s.proxy_jump:
        options.append(("ProxyJump", s.proxy_jump))
    if s.keepalive_interval is not None:
        options.append(("ServerAliveInterval", str(s.keepalive_interval)))
    if s.keepalive_count_max is not None:
        options.append(("ServerAliveCountMax", str(s.keepalive_count_max)))
    return options


def config_files(explicit: tuple[str, ...]) -> list[str]:
    """``-F FILE`` (the last one, as OpenSSH), else ``~/.ssh/config`` when it can be read."""
    if explicit:
        path = os.path.expanduser(explicit[-1])
        if not os.access(path, os.R_OK):
            raise SSHArgumentError(f"ssh option -F: cannot read the configuration file {path}")
        return [path]
    default = os.path.expanduser("~/.ssh/config")
    return [default] if os.access(default, os.R_OK) else []


def ssh_target(settings: ConnectionSettings, known_hosts: Callable[[str], Any]) -> SSHTarget:
    """asyncssh connect options for ``settings``; ``known_hosts`` loads a known_hosts file (cached by the caller)."""
    resolution = _Resolution()
    files: tuple[str, ...] = ()
    for source in ("ssh_args", None, "ssh_common_args", "ssh_extra_args"):
        if source is None:
            resolution.add(_settings_options(settings), "connection settings")
            continue
        arguments = parse_ssh_args(getattr(settings, source), source)
        resolution.add(arguments.options, source)
        files += arguments.config_files
    target = SSHTarget(settings.address, DEFAULT_PORT, {"config": config_files(files)})
    if settings.password:
        target.options["password"] = settings.password  # no OpenSSH option: ssh would prompt for it
    builder = _OptionBuilder(settings, target, known_hosts)
    for lower, (keyword, value, source) in resolution.values.items():
        builder.apply(lower, keyword, value, source)
        target.sources[keyword] = source
    if resolution.identity_files:
        builder.identity_files(resolution.identity_files)
    builder.finish()
    return target


class _OptionBuilder:
    """Turns resolved OpenSSH options into asyncssh's keyword arguments, refusing what it cannot honour."""

    def __init__(self, settings: ConnectionSettings, target: SSHTarget, known_hosts: Callable[[str], Any]):
        self.settings = settings
        self.target = target
        self.options = target.options
        self.known_hosts = known_hosts
        self.only_given_identities = False  # IdentitiesOnly: the agent offers only the given keys
        self._config: SSHConfig | None = None

    def apply(self, lower: str, keyword: str, value: str, source: str) -> None:
        handler = _HANDLERS.get(lower)
        if handler is None:
            if lower in _NO_EFFECT:
                accepted = _NO_EFFECT[lower]
                if accepted is None or value.lower() in accepted:
                    return
                raise SSHArgumentError(f"{source}: ssh option {keyword}={value} is not supported (only "
                                       f"{keyword}={'/'.join(accepted)}, which is what provisioning does)")
            raise SSHArgumentError(f"{source}: ssh option {keyword} is not supported "
                                   f"(supported: {', '.join(_SUPPORTED)})")
        try:
            handler(self, value)
        except ValueError as exc:
            raise SSHArgumentError(f"{source}: ssh option {keyword}={value}: {exc}") from None

    # -- values --------------------------------------------------------------------------------------------
    @staticmethod
    def _bool(value: str) -> bool:
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise ValueError("expected yes or no")

    def _expand(self, value: str) -> str:
        """OpenSSH's %-tokens of ProxyCommand and friends: %h %p %r %n %%."""
        tokens = {"h": self.target.host, "p": str(self.options.get("port", self.target.port)),
                  "r": str(self.options.get("username") or getpass.getuser()), "n": self.settings.address, "%": "%"}
        out, index = [], 0
        while index < len(value):
            char = value[index]
            if char == "%" and index + 1 < len(value):
                token = value[index + 1]
                if token not in tokens:
                    raise ValueError(f"unknown token %{token} (supported: %h %p %r %n %%)")
                out.append(tokens[token])
                index += 2
            else:
                out.append(char)
                index += 1
        return "".join(out)

    # -- handlers ------------------------------------------------------------------------------------------
    def hostname(self, value: str) -> None:
        self.target.host = value.replace("%h", self.settings.address)

    def port(self, value: str) -> None:
        if not value.isdigit() or not 0 < int(value) < 65536:
            raise ValueError("expected a port number")
        self.options["port"] = self.target.port = int(value)

    def user(self, value: str) -> None:
        self.options["username"] = value

    def connect_timeout(self, value: str) -> None:
        seconds = float(value)
        self.options["connect_timeout"] = self.options["login_timeout"] = seconds if seconds > 0 else None

    def keepalive_interval(self, value: str) -> None:
        self.options["keepalive_interval"] = max(0.0, float(value))

    def keepalive_count_max(self, value: str) -> None:
        self.options["keepalive_count_max"] = max(1, int(value))

    def strict_host_key_checking(self, value: str) -> None:
        lowered = value.lower()
        if lowered in ("no", "off", "false"):
            self.options["known_hosts"] = None
        elif lowered == "accept-new":
            raise ValueError("accepting and recording new host keys is not supported; add the key to "
                             "known_hosts (ssh-keyscan), or set StrictHostKeyChecking=no")
        elif lowered not in ("yes", "true", "ask"):  # ask: there is no one to ask, so unknown keys are refused
            raise ValueError("expected yes, no or ask")

    def user_known_hosts_file(self, value: str) -> None:
        if "known_hosts" in self.options:  # StrictHostKeyChecking=no came first
            return
        paths = [os.path.expanduser(path) for path in value.split() if path.lower() != "none"]
        self.options["known_hosts"] = self.known_hosts(paths[0]) if len(paths) == 1 else paths

    def host_key_alias(self, value: str) -> None:
        self.options["host_key_alias"] = value

    def compression(self, value: str) -> None:
        self.options["compression_algs"] = _COMPRESSION[self._bool(value)]

    def proxy_jump(self, value: str) -> None:
        if value.lower() == "none":
            self.options["tunnel"] = None
            return
        hops = [hop.removeprefix("ssh://") for hop in value.split(",")]
        for hop in hops:
            host_port = hop.rsplit("@", 1)[-1]
            if ":" in host_port and not host_port.rsplit(":", 1)[1].isdigit():
                raise ValueError(f"bad jump host {hop!r} (expected [user@]host[:port])")
        self.options["tunnel"] = ",".join(hops)

    def proxy_command(self, value: str) -> None:
        self.options["proxy_command"] = None if value.lower() == "none" else self._expand(value)

    def address_family(self, value: str) -> None:
        if value.lower() not in _FAMILIES:
            raise ValueError("expected any, inet or inet6")
        self.options["family"] = _FAMILIES[value.lower()]

    def bind_address(self, value: str) -> None:
        self.options["local_addr"] = (value, 0)

    def identities_only(self, value: str) -> None:
        self.only_given_identities = self._bool(value)

    def identity_files(self, paths: list[str]) -> None:
        self.options["client_keys"] = [os.path.expanduser(self._expand(path)) for path in paths]

    def preferred_authentications(self, value: str) -> None:
        self.options["preferred_auth"] = value

    def forward_agent(self, value: str) -> None:
        self.options["agent_forwarding"] = self._bool(value)

    # -- what the configuration files or provisioning's defaults decide ------------------------------------
    def _from_config(self, keyword: str) -> Any:
        """``keyword`` as the OpenSSH configuration files set it for this host, or None."""
        files = self.options["config"]
        if not files:
            return None
        if self._config is None:
            username = self.options.get("username", ())
            port = self.options.get("port", ())
            try:
                self._config = SSHClientConfig.load(None, files, False, False, False, getpass.getuser(), username,
                                                    self.settings.address, port)
            except (OSError, ValueError) as exc:
                raise SSHArgumentError(f"cannot read the OpenSSH configuration: {exc}") from None
        return self._config.get(keyword)

    def finish(self) -> None:
        if self.only_given_identities:
            if self.options.get("client_keys"):
                self.options["agent_identities"] = self.options["client_keys"]  # the agent offers only these
            else:
                self.options["agent_path"] = None
        if "keepalive_interval" not in self.options and self._from_config("ServerAliveInterval") is None:
            self.options["keepalive_interval"] = DEFAULT_KEEPALIVE_INTERVAL
        if "keepalive_count_max" not in self.options and self._from_config("ServerAliveCountMax") is None:
            self.options["keepalive_count_max"] = DEFAULT_KEEPALIVE_COUNT_MAX
        if "encryption_algs" not in self.options and self._from_config("Ciphers") is None:
            self.options["encryption_algs"] = PREFERRED_CIPHERS
        if "port" not in self.options:  # asyncssh takes the port from the configuration; this is for messages
            configured = self._from_config("Port")
            self.target.port = int(configured) if configured else DEFAULT_PORT
            self.target.sources["Port"] = "OpenSSH configuration" if configured else "default"
        if "username" in self.options:
            self.target.user = self.options["username"]
        else:  # as asyncssh decides it: the configuration's User, else the local user
            configured = self._from_config("User")
            self.target.user = configured or getpass.getuser()
            self.target.sources["User"] = "OpenSSH configuration" if configured else "local user"


def _algorithms(name: str) -> Callable[[_OptionBuilder, str], None]:
    def set_algorithms(builder: _OptionBuilder, value: str) -> None:
        builder.options[name] = value  # asyncssh reads OpenSSH's lists, "+alg", "-alg" and "^alg" included
    return set_algorithms


def _flag(name: str) -> Callable[[_OptionBuilder, str], None]:
    def set_flag(builder: _OptionBuilder, value: str) -> None:
        builder.options[name] = builder._bool(value)
    return set_flag


B = _OptionBuilder
_HANDLERS: dict[str, Callable[[_OptionBuilder, str], None]] = {
    "hostname": B.hostname, "port": B.port, "user": B.user, "identitiesonly": B.identities_only,
    "connecttimeout": B.connect_timeout, "serveraliveinterval": B.keepalive_interval,
    "serveralivecountmax": B.keepalive_count_max, "stricthostkeychecking": B.strict_host_key_checking,
    "userknownhostsfile": B.user_known_hosts_file, "hostkeyalias": B.host_key_alias,
    "ciphers": _algorithms("encryption_algs"), "kexalgorithms": _algorithms("kex_algs"),
    "macs": _algorithms("mac_algs"), "hostkeyalgorithms": _algorithms("server_host_key_algs"),
    "compression": B.compression, "proxyjump": B.proxy_jump, "proxycommand": B.proxy_command,
    "addressfamily": B.address_family, "bindaddress": B.bind_address, "forwardagent": B.forward_agent,
    "preferredauthentications": B.preferred_authentications, "tcpkeepalive": _flag("tcp_keepalive"),
    "passwordauthentication": _flag("password_auth"), "pubkeyauthentication": _flag("public_key_auth"),
    "kbdinteractiveauthentication": _flag("kbdint_auth"), "challengeresponseauthentication": _flag("kbdint_auth"),
    "hostbasedauthentication": _flag("host_based_auth"), "gssapiauthentication": _flag("gss_auth"),
}
del B
# Options accepted with no effect: connection sharing (one connection per host is held for the whole run anyway),
# logging, and what the agent's channel always is (no terminal, no X11, never a prompt).
# None: any value; else the values that say what provisioning does anyway.
_NO_EFFECT: dict[str, tuple[str, ...] | None] = {
    "controlmaster": None, "controlpersist": None, "controlpath": None, "loglevel": None,
    "numberofpasswordprompts": None, "hashknownhosts": None, "batchmode": None,
    "requesttty": ("no", "false"), "forwardx11": ("no", "false"), "checkhostip": ("no", "false")}
_SUPPORTED = ("Hostname", "Port", "User", "IdentityFile", "IdentitiesOnly", "ConnectTimeout", "ServerAliveInterval",
              "ServerAliveCountMax", "StrictHostKeyChecking", "UserKnownHostsFile", "HostKeyAlias", "Ciphers",
              "KexAlgorithms", "MACs", "HostKeyAlgorithms", "Compression", "ProxyJump", "ProxyCommand",
              "AddressFamily", "BindAddress", "ForwardAgent", "PreferredAuthentications", "TCPKeepAlive",
              "PasswordAuthentication", "PubkeyAuthentication", "KbdInteractiveAuthentication",
              "HostbasedAuthentication", "GSSAPIAuthentication", "ControlMaster", "ControlPersist", "ControlPath",
              "LogLevel", "RequestTTY=no", "ForwardX11=no", "BatchMode", "NumberOfPasswordPrompts",
              "HashKnownHosts", "CheckHostIP=no")
