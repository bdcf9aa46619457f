"""What ``reboot`` runs on a host of each system: the shutdown command and its arguments, the boot time and the test
commands, chosen as Ansible chooses them (distribution and major version, then distribution, then OS family, then
the default).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_SHUTDOWN = "shutdown"
DEFAULT_SHUTDOWN_ARGS = '-r {delay_min} "{message}"'
DEFAULT_BOOT_TIME = "cat /proc/sys/kernel/random/boot_id"
DEFAULT_TEST = "whoami"

SHUTDOWN_COMMANDS = {"alpine": "reboot", "vmkernel": "reboot"}
SHUTDOWN_ARGS = {
    "alpine": "",
    "void": '-r +{delay_min} "{message}"',
    "freebsd": '-r +{delay_sec}s "{message}"',
    "linux": DEFAULT_SHUTDOWN_ARGS,
    "macosx": '-r +{delay_min} "{message}"',
    "openbsd": '-r +{delay_min} "{message}"',
    "solaris": '-y -g {delay_sec} -i 6 "{message}"',
    "sunos": '-y -g {delay_sec} -i 6 "{message}"',
    "vmkernel": "-d {delay_sec}",
    "aix": "-Fr",
}
BOOT_TIME_COMMANDS = {
    "freebsd": "/sbin/sysctl kern.boottime",
    "openbsd": "/sbin/sysctl kern.boottime",
    "macosx": "who -b",
    "solaris": "who -b",
    "sunos": "who -b",
    "vmkernel": "grep booted /var/log/vmksummary.log | tail -n 1",
    "aix": "who -b",
}
TEST_COMMANDS = {"solaris": "who", "vmkernel": "who"}


@dataclass(frozen=True)
class Distribution:
    name: str  # lower case: debian, ubuntu, alpine, freebsd ...
    version: str  # the major version
    family: str  # lower case: debian, redhat, alpine ...

    @classmethod
    def from_facts(cls, facts: Mapping[str, Any]) -> Distribution:
        """From setup's facts; a KeyError names a fact that is missing."""
        return cls(str(facts["ansible_distribution"]).lower(),
                   str(facts["ansible_distribution_version"]).split(".")[0],
                   str(facts["ansible_os_family"]).lower())

    def pick(self, table: Mapping[str, str], default: str) -> str:
        for key in (self.name + self.version, self.name, self.family):
            if key in table:
                return table[key]
        return default


def shutdown_parts(distribution: Distribution, args: Mapping[str, Any]) -> tuple[str, str]:
    """(the command, its arguments): from reboot_command when given (split at its first space), else the
    system's shutdown command with the delay and the message."""
    if args.get("reboot_command") is not None:
        command, _, arguments = str(args["reboot_command"]).partition(" ")
        return command, arguments
    delay = max(0, args["pre_reboot_delay"])
    arguments = distribution.pick(SHUTDOWN_ARGS, DEFAULT_SHUTDOWN_ARGS)
    return (distribution.pick(SHUTDOWN_COMMANDS, DEFAULT_SHUTDOWN),
            arguments.format(delay_sec=delay, delay_min=delay // 60, message=args["msg"]))


def boot_time_command(distribution: Distribution, args: Mapping[str, Any]) -> str:
    return args.get("boot_time_command") or distribution.pick(BOOT_TIME_COMMANDS, DEFAULT_BOOT_TIME)


def readiness_command(distribution: Distribution, args: Mapping[str, Any]) -> str:
    return args.get("test_command") or distribution.pick(TEST_COMMANDS, DEFAULT_TEST)
