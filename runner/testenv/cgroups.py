"""The cgroup of a test host that boots systemd: where it goes on the machine, and removing it once the host ended.

systemd as PID 1 creates and manages cgroups of its own (one per unit), so such a host's init moves into a fresh
cgroup v2 directory and makes it the root of the host's cgroup namespace (runner/testenv/init.py). The directory
sits below the cgroup of the process that starts the host, which is one it may create children in.
"""

from __future__ import annotations

import os
from pathlib import Path

from runner.testenv.errors import TestEnvError

MOUNTINFO = Path("/proc/self/mountinfo")
OWN_CGROUP = Path("/proc/self/cgroup")


def cgroup2_mount(mountinfo: str) -> Path | None:
    """The machine's cgroup v2 hierarchy (``/sys/fs/cgroup``, or ``/sys/fs/cgroup/unified`` on a hybrid
    machine), from the text of /proc/self/mountinfo."""
    for line in mountinfo.splitlines():
        fields, _, after = line.partition(" - ")
        if after.split()[:1] == ["cgroup2"]:
            return Path(fields.split()[4].encode().decode("unicode_escape"))
    return None


def own_cgroup(cgroup: str) -> str:
    """This process's cgroup v2 path (``0::/path`` in /proc/self/cgroup), from that file's text."""
    for line in cgroup.splitlines():
        if line.startswith("0::"):
            return line[3:]
    return "/"


def host_cgroup(env_name: str, host_name: str) -> Path:
    """Where the host ``host_name`` of env ``env_name`` gets its cgroup; an error when the machine has no cgroup
    v2 hierarchy (systemd in a host needs one)."""
    mount = cgroup2_mount(MOUNTINFO.read_text())
    if mount is None:
        raise TestEnvError(
            "test hosts that boot systemd need a cgroup v2 hierarchy: the machine mounts none "
            "(mount -t cgroup2 none /sys/fs/cgroup/unified)"
        )
    return mount / own_cgroup(OWN_CGROUP.read_text()).strip("/") / f"provisioning-testenv.{env_name}.{host_name}"


def remove_cgroup(path: Path) -> None:
    """Remove a host's cgroup and those systemd made below it, deepest first: each is empty once the host's
    processes are gone (a cgroup directory is removed with rmdir, its control files go with it)."""
    if not path.is_dir():
        return
    for directory, _, _ in sorted(os.walk(path), key=lambda entry: len(entry[0]), reverse=True):
        try:
            os.rmdir(directory)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise TestEnvError(f"cannot remove the test host's cgroup {directory}: {exc.strerror}") from None
