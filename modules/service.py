"""Start, stop, restart and reload services, and enable them at boot: systemd where it runs, init scripts elsewhere."""

from modules._services import (
    SYSTEMD_OPTIONS,
    ServiceChange,
    SysVService,
    finish,
    plan_state,
    reported_state,
    run_actions,
    run_systemd,
    systemd_runs,
)
from modules._spec import argument_spec

DOCUMENTATION = {  # type: dict
    "short_description": "Manage services",
    "description": [
        "Controls services on the host with its own init system: systemctl where systemd runs "
        "(/run/systemd/system exists), otherwise the service's init script in /etc/init.d, enabled at boot with "
        "update-rc.d (its S links in /etc/rc2.d to /etc/rc5.d).",
        "The init script is called directly: /usr/sbin/policy-rc.d, which holds back daemons a package install "
        "would start, governs invoke-rc.d only, not an explicit request.",
        "Without systemd, whether a service runs is its script's status (exit 0 runs, 3 stopped), or a process "
        "whose command line contains pattern.",
        "restarted and reloaded always report a change; reloading a stopped service starts it.",
        "The module_defaults of systemd or sysvinit apply under the task's arguments, as ansible-core's service "
        "action applies the chosen module's: use names it, else the host's service_mgr fact.",
    ],
    "options": {
        "name": {"description": "Name of the service.", "type": "str", "required": True},
        "state": {"description": "started/stopped are idempotent; restarted and reloaded always act.",
                  "type": "str", "choices": ["reloaded", "restarted", "started", "stopped"]},
        "enabled": {"description": "Whether the service starts at boot.", "type": "bool"},
        "pattern": {"description": "Without systemd: a text looked for in the command lines of running "
                                   "processes, instead of the script's status.", "type": "str"},
        "sleep": {"description": "With restarted: seconds between stop and start.", "type": "int"},
        "arguments": {"description": "Further arguments for the init script's command line.", "type": "str",
                      "aliases": ["args"], "default": ""},
        "use": {"description": "auto (what runs on the host), systemd or sysvinit.", "type": "str",
                "default": "auto", "choices": ["auto", "service", "systemd", "sysvinit"]},
        "runlevel": {"description": "Accepted for compatibility (OpenRC runlevels); unused.", "type": "str",
                     "default": "default"},
    },
}
# Where systemd runs, Ansible's service hands the task to its systemd module, whose options it then takes too
# (daemon-reload, masked, ...); elsewhere they fail the task as unsupported, as Ansible's service module does.
SYSTEMD_ONLY = ("masked", "daemon_reload", "daemon_reexec", "scope", "no_block", "force")
DOCUMENTATION["options"].update(
    (name, dict(SYSTEMD_OPTIONS[name], description="Where systemd runs: "
                + SYSTEMD_OPTIONS[name]["description"], default=None))
    for name in SYSTEMD_ONLY)

EXAMPLES = """
- name: Start memcached and start it at boot
  service:
    name: memcached
    state: started
    enabled: true

- name: Restart a daemon, waiting between stop and start
  service:
    name: lighttpd
    state: restarted
    sleep: 2
"""

RETURN = {"name": "The service's name", "state": "Its state as asked (started, stopped, ...)",
          "enabled": "Whether it starts at boot", "status": "With systemd: the unit's properties"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_one_of": [["state", "enabled"]]}
SUPPORTS_CHECK_MODE = True
# As ansible-core's service action, the controller names the module that does the work (``use``, else the host's
# service_mgr fact) and gives the task that module's module_defaults under its own arguments.
CHOSEN_BY_FACT = "service_mgr"
CHOSEN_FROM = ("systemd", "sysvinit")
SYSTEMD_DEFAULTS = dict((option, SYSTEMD_OPTIONS[option].get("default")) for option in SYSTEMD_ONLY)


def run(module):
    params = module.params
    name = params["name"]
    use = params["use"]
    use_systemd = use == "systemd" or (use in ("auto", "service") and systemd_runs())
    if use_systemd:
        systemd_params = dict(params, **dict((option, params[option] if params[option] is not None else default)
                                             for option, default in SYSTEMD_DEFAULTS.items()))
        return run_systemd(module, systemd_params)
    given = [option for option in SYSTEMD_ONLY if params[option] is not None]
    if given:
        module.fail("Unsupported parameters for (service) module: %s" % ", ".join(given))
    change = ServiceChange(name)
    result = {"name": name, "changed": False}
    unit = SysVService(module, name, params["arguments"], params["pattern"])
    running = unit.running()
    if params["enabled"] is not None:
        unit.plan_enabled(change, params["enabled"])
        result["enabled"] = params["enabled"]
    if params["state"]:
        planned = len(change.actions)
        plan_state(change, running, params["state"], unit.control, params["sleep"])
        result["state"] = reported_state(params["state"])
        if module.check_mode and len(change.actions) > planned:
            # ansible-core's service (init scripts) ends a check run that would change the state here, in its words
            return {"changed": True, "msg": "service state changed"}
    run_actions(module, change, params["sleep"])
    return finish(module, result, change)
