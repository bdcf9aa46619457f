"""Control systemd units: start, stop, restart, reload, enable, mask, and reload systemd's configuration."""

from modules._services import ServiceChange, SystemdUnit, plan_state, run_actions
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
    "options": {
        "name": {"description": "Name of the unit (.service is added when no unit type is given).",
                 "type": "str", "aliases": ["service", "unit"]},
        "state": {"description": "started, stopped, restarted or reloaded.", "type": "str",
                  "choices": ["reloaded", "restarted", "started", "stopped"]},
        "enabled": {"description": "Whether the unit starts at boot.", "type": "bool"},
        "masked": {"description": "Whether the unit is masked (cannot be started).", "type": "bool"},
        "daemon_reload": {"description": "Run daemon-reload first, so changed unit files are read.",
                          "type": "bool", "default": False, "aliases": ["daemon-reload"]},
        "daemon_reexec": {"description": "Run daemon-reexec first.", "type": "bool", "default": False,
                          "aliases": ["daemon-reexec"]},
        "scope": {"description": "system, user (the calling user's manager) or global.", "type": "str",
                  "default": "system", "choices": ["global", "system", "user"]},
        "no_block": {"description": "Do not wait for the operation to finish.", "type": "bool",
                     "default": False},
        "force": {"description": "Override existing symlinks when enabling.", "type": "bool", "default": False},
    },
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
    params = module.params
    result = {"changed": False}
    name = params["name"]
    probe = SystemdUnit(  # fails clearly where systemd does not run
        module, name or "", params["scope"], params["no_block"], params["force"])
    for flag, action in (("daemon_reexec", "daemon-reexec"), ("daemon_reload", "daemon-reload")):
        # Not a change of the unit, as in Ansible: these only make systemd read its files again.
        if params[flag] and not module.check_mode:
            module.run_command([*probe.systemctl, action], check_rc=True)
    if not name:
        if params["state"] or params["enabled"] is not None or params["masked"] is not None:
            module.fail("missing required arguments: name (needed by state, enabled and masked)")
        return result
    status = probe.show()
    change = ServiceChange(name)
    result.update(name=name, status=status)
    if params["masked"] is not None:
        probe.plan_masked(change, params["masked"], status)
    if (params["state"] or params["enabled"] is not None) and not params["masked"]:
        probe.require_found(status)
    if params["enabled"] is not None:
        probe.plan_enabled(change, params["enabled"])
        result["enabled"] = params["enabled"]
    if params["state"]:
        plan_state(change, probe.running(status), params["state"], probe.control)
        result["state"] = params["state"]
    run_actions(module, change)
    result["changed"] = change.changed
    if change.changed:
        result["diff"] = change.diff
    return result
