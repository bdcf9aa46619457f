"""Control systemd units: start, stop, restart, reload, enable, mask, and reload systemd's configuration."""

from modules._services import SYSTEMD_OPTIONS, run_systemd
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Manage systemd units",
    "description": [
        "Controls systemd units with systemctl. It needs systemd running on the host (/run/systemd/system "
        "exists) and fails with a clear message where it does not: use the service module there.",
        "restarted and reloaded always report a change; reloading a stopped unit starts it.",
        "systemd_service is the module's name in ansible-core; systemd is the same file under its older name "
        "(modules/systemd.py links to it), so both names run the same code.",
    ],
    "options": SYSTEMD_OPTIONS,
}

EXAMPLES = """
- name: Reload systemd's configuration and restart a unit
  systemd_service:
    name: app
    state: restarted
    daemon_reload: true

- name: Make sure a unit cannot be started
  systemd:  # the same module under its older name
    name: telnet.socket
    masked: true
"""

RETURN = {"name": "The unit's name", "state": "Its state as asked", "enabled": "Whether it starts at boot",
          "status": "The unit's properties as systemctl show reports them (before the change)"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_one_of": [["state", "enabled", "masked", "daemon_reload", "daemon_reexec"]]}
SUPPORTS_CHECK_MODE = True


def run(module):
    return run_systemd(module, module.params)
