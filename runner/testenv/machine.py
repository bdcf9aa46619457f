"""What the machine must have for test hosts, and what it can tell about them: processes, mounts, listeners."""

from __future__ import annotations

import ctypes
import os
import shutil
import socket
import subprocess
from pathlib import Path

from runner.testenv.errors import TestEnvError

SSHD = "/usr/sbin/sshd"
# Tool -> the Debian package that ships it, for the message that says what to install.
REQUIRED_TOOLS = {SSHD: "openssh-server", "ssh-keygen": "openssh-client", "unshare": "util-linux"}
MNT_DETACH = 2


NOT_ROOT = "local test hosts need root (namespaces, mounts, sshd on port 22): run this as root"


def unavailable_reason() -> str | None:
    """Why test hosts cannot run here (not root, a tool missing), or None when they can."""
    if os.geteuid() != 0:
        return NOT_ROOT
    for tool, package in REQUIRED_TOOLS.items():
        if shutil.which(tool) is None:
            return f"local test hosts need {tool}: install Debian's {package} (apt-get install {package})"
    return None


def require_root() -> None:
    if os.geteuid() != 0:
        raise TestEnvError(NOT_ROOT)


def require_machine() -> None:
    reason = unavailable_reason()
    if reason:
        raise TestEnvError(reason)
    _ensure_sudo()


def _ensure_sudo() -> None:
    """The hosts' test users need sudo; the hosts see the machine's /usr, so install it on the machine."""
    if shutil.which("sudo"):
        return
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", "sudo"]
    for attempt in ([install], [["apt-get", "update", "-q"], install]):
        if all(subprocess.run(cmd, env=env, capture_output=True).returncode == 0 for cmd in attempt):
            return
    raise TestEnvError("local test hosts need sudo and installing it failed: run 'apt-get install sudo'")


def start_time(pid: int) -> int | None:
    """The process's start time (clock ticks since boot), or None when it is gone or a zombie.

    A pid plus its start time names one process for good: a recycled pid has another start time.
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the command name may hold spaces and parentheses
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


def mount_points_under(directory: Path) -> list[str]:
    """The machine's mount points at or below ``directory`` (deepest first, the order to unmount them)."""
    prefix = str(directory).rstrip("/")
    found = []
    with open("/proc/self/mountinfo") as handle:
        for line in handle:
            # Field 5 is the mount point, with spaces and other odd bytes escaped as octal (\040).
            point = line.split()[4].encode().decode("unicode_escape")
            if point == prefix or point.startswith(prefix + "/"):
                found.append(point)
    return sorted(found, key=len, reverse=True)


def unmount_all_under(directory: Path) -> None:
    """Detach every mount at or below ``directory`` (one of the env's own), so deleting it never reaches
    through a mount into another file system."""
    libc = ctypes.CDLL(None, use_errno=True)
    for point in mount_points_under(directory):
        if libc.umount2(point.encode(), MNT_DETACH) != 0:
            errno = ctypes.get_errno()
            raise TestEnvError(f"cannot unmount {point}: {os.strerror(errno)}")


def accepts_tcp(address: str, port: int = 22, timeout: float = 0.2) -> bool:
    try:
        with socket.create_connection((address, port), timeout=timeout):
            return True
    except OSError:
        return False
