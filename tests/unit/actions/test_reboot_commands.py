"""What reboot runs on each system: the shutdown command and arguments, boot time and test commands."""

from __future__ import annotations

from runner.actions.reboot_commands import Distribution, boot_time_command, readiness_command, shutdown_parts

ARGS = {"pre_reboot_delay": 150, "msg": "Kernel update", "reboot_command": None, "boot_time_command": None,
        "test_command": None}


def test_linux_shuts_down_with_the_delay_in_minutes_and_the_message() -> None:
    debian = Distribution.from_facts({"ansible_distribution": "Debian", "ansible_distribution_version": "12.5",
                                      "ansible_os_family": "Debian"})
    assert debian == Distribution("debian", "12", "debian")
    assert shutdown_parts(debian, ARGS) == ("shutdown", '-r 2 "Kernel update"')
    assert shutdown_parts(debian, {**ARGS, "pre_reboot_delay": -5}) == ("shutdown", '-r 0 "Kernel update"')
    assert boot_time_command(debian, ARGS) == "cat /proc/sys/kernel/random/boot_id"
    assert readiness_command(debian, ARGS) == "whoami"


def test_other_systems_by_distribution_then_family() -> None:
    assert shutdown_parts(Distribution("alpine", "3", "alpine"), ARGS) == ("reboot", "")
    freebsd = Distribution("freebsd", "14", "freebsd")
    assert shutdown_parts(freebsd, ARGS) == ("shutdown", '-r +150s "Kernel update"')
    assert boot_time_command(freebsd, ARGS) == "/sbin/sysctl kern.boottime"
    solaris = Distribution("solaris", "11", "solaris")
    assert shutdown_parts(solaris, ARGS) == ("shutdown", '-y -g 150 -i 6 "Kernel update"')
    assert readiness_command(solaris, ARGS) == "who"


def test_given_commands_win() -> None:
    debian = Distribution("debian", "12", "debian")
    given = {**ARGS, "reboot_command": "/usr/local/sbin/safe-reboot --now -q", "boot_time_command": "uptime -s",
             "test_command": "systemctl is-system-running"}
    assert shutdown_parts(debian, given) == ("/usr/local/sbin/safe-reboot", "--now -q")
    assert shutdown_parts(debian, {**ARGS, "reboot_command": "reboot"}) == ("reboot", "")
    assert boot_time_command(debian, given) == "uptime -s"
    assert readiness_command(debian, given) == "systemctl is-system-running"
