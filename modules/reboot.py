"""Reboot the host, wait until it went down and came back, and until it runs commands again.

The work happens on the controller, in ``runner/actions/reboot.py`` (the connection drops during a reboot, so no
agent on the host can see it through); this file holds the module's description and arguments.
"""

DOCUMENTATION = {
    "short_description": "Reboot a machine",
    "description": [
        "Reboots the host, waits for it to go down and come back up, then for a test command to succeed.",
        "The host's boot time (boot_time_command) is read before the reboot; the reboot command runs (shutdown "
        "-r, found in search_paths, or reboot_command); then fresh connections are tried, connect_timeout seconds "
        "each, until the boot time reads differently, and until test_command succeeds. Each of the two waits may "
        "take reboot_timeout seconds. Later tasks use a new connection to the host.",
        "The shutdown command and its arguments depend on the host's system (read with setup's min subset), as in "
        "Ansible: shutdown -r with a delay in minutes on Linux, macOS and OpenBSD, in seconds on FreeBSD and "
        "Solaris, reboot on Alpine.",
        "In check mode nothing runs and a reboot is reported, as in Ansible. With the local connection the task "
        "fails: it would reboot the controller.",
    ],
    "options": {
        "pre_reboot_delay": {"description": "Seconds to wait before the reboot, passed to the shutdown command "
                                            "(on Linux, macOS and OpenBSD in minutes, rounded down). Negative "
                                            "values count as 0.",
                             "type": "int", "default": 0},
        "post_reboot_delay": {"description": "Seconds to wait after the reboot command succeeded, before the "
                                             "boot time is read again. Negative values count as 0.",
                              "type": "int", "default": 0},
        "reboot_timeout": {"description": "Seconds to wait for the host to come back, and again for the test "
                                          "command to succeed.", "type": "int", "default": 600},
        "connect_timeout": {"description": "Seconds one connection attempt may take while waiting; unset, the "
                                           "connection's own timeout.", "type": "int"},
        "test_command": {"description": "Command that must succeed on the rebooted host before the task ends "
                                        "(who on Solaris and VMware ESXi).", "type": "str", "default": "whoami"},
        "msg": {"description": "Message shown to users before the reboot.", "type": "str",
                "default": "Reboot initiated by Ansible"},
        "search_paths": {"description": "Where on the host the shutdown command is looked for (PATH is not "
                                        "used).", "type": "list", "elements": "str",
                         "default": ["/sbin", "/bin", "/usr/sbin", "/usr/bin", "/usr/local/sbin"]},
        "boot_time_command": {"description": "Command whose output names the current boot; it must read the "
                                             "same until the host reboots.",
                              "type": "str", "default": "cat /proc/sys/kernel/random/boot_id"},
        "reboot_command": {"description": "The command that reboots the host, with its arguments; a command "
                                          "name without a path is looked for in search_paths. pre_reboot_delay "
                                          "and msg are then not used.", "type": "str"},
    },
}

EXAMPLES = """
- name: Reboot after a kernel upgrade, waiting up to 15 minutes
  reboot:
    reboot_timeout: 900

- name: Reboot with a custom command, checking that the web server answers afterwards
  reboot:
    reboot_command: /usr/local/sbin/safe-reboot --now
    test_command: curl -fsS http://localhost/health
    post_reboot_delay: 10
"""

RETURN = {
    "rebooted": "True if the machine was rebooted",
    "elapsed": "Seconds spent waiting for the host to reboot and answer",
}

ARGUMENT_SPEC = {
    "pre_reboot_delay": {"type": "int", "default": 0},
    "post_reboot_delay": {"type": "int", "default": 0},
    "reboot_timeout": {"type": "int", "default": 600},
    "connect_timeout": {"type": "int"},
    "test_command": {"type": "str"},
    "msg": {"type": "str", "default": "Reboot initiated by Ansible"},
    "search_paths": {"type": "list", "elements": "str",
                     "default": ["/sbin", "/bin", "/usr/sbin", "/usr/bin", "/usr/local/sbin"]},
    "boot_time_command": {"type": "str"},
    "reboot_command": {"type": "str"},
}
SUPPORTS_CHECK_MODE = True
ACTION = "reboot"
