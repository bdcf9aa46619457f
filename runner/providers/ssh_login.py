"""The ``ssh`` command line that logs in to a server as its provider says to: address, user, port, key and the
provider's options (a local server's own known_hosts file)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from runner.errors import ExitCode, UserError


class ServerDown(UserError):
    """The server to log in to does not run: unreachable, as Ansible's exit code has it."""

    exit_code = ExitCode.UNREACHABLE


def ssh_argv(login: Mapping[str, Any], command: Sequence[str] = ()) -> list[str]:
    """``ssh`` with the login variables a provider gives (``Provider.login_vars``), then ``command`` if any."""
    argv = ["ssh"]
    if login.get("ansible_port"):
        argv += ["-p", str(login["ansible_port"])]
    if login.get("ansible_ssh_private_key_file"):
        argv += ["-i", str(login["ansible_ssh_private_key_file"]), "-o", "IdentitiesOnly=yes"]
    if login.get("provisioning_ssh_known_hosts_file"):
        argv += ["-o", f"UserKnownHostsFile={login['provisioning_ssh_known_hosts_file']}",
                 "-o", "StrictHostKeyChecking=yes"]
    for name in ("ansible_ssh_common_args", "ansible_ssh_extra_args"):
        if login.get(name):
            argv += shlex.split(str(login[name]))
    if login.get("ansible_user"):
        argv += ["-l", str(login["ansible_user"])]
    # '--' ends ssh's options: a command starting with '-' is the remote command's, not ssh's.
    return [*argv, "--", str(login["ansible_host"]), *command]
