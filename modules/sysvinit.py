"""Start, stop, restart and reload SysV init services, and enable them at boot in chosen runlevels."""

import glob
import os
import subprocess

from modules._services import ServiceChange, SysVService, finish, plan_state, run_actions
from modules._spec import argument_spec
from modules._utils import error_text

DOCUMENTATION = {
    "short_description": "Manage SysV services",
    "description": [
        "Controls a service through its init script in /etc/init.d, whatever init runs the host: the script is "
        "called directly (policy-rc.d governs package scripts, not an explicit request).",
        "Whether it runs is the script's status (exit 0 runs, 3 stopped), or a process whose command line "
        "contains pattern. enabled means S links in /etc/rc2.d to /etc/rc5.d (or in each of runlevels), set "
        "with update-rc.d.",
        "restarted and reloaded always report a change; reloading a stopped service starts it.",
        "daemonize runs the script detached, in a session of its own with its output in a file, for scripts "
        "that leave a daemon holding their output open.",
    ],
    "options": {
        "name": {"description": "Name of the service (its script in /etc/init.d).", "type": "str",
                 "required": True, "aliases": ["service"]},
        "state": {"description": "started/stopped are idempotent; restarted and reloaded always act.",
                  "type": "str", "choices": ["started", "stopped", "restarted", "reloaded"]},
        "enabled": {"description": "Whether the service starts at boot.", "type": "bool"},
        "sleep": {"description": "With restarted: seconds between stop and start.", "type": "int", "default": 1},
        "pattern": {"description": "A text looked for in the command lines of running processes, instead of "
                                   "the script's status.", "type": "str"},
        "runlevels": {"description": "The runlevels enabled applies to (default: update-rc.d's).", "type": "list",
                      "elements": "str"},
        "arguments": {"description": "Further arguments for the init script's command line.", "type": "str",
                      "aliases": ["args"]},
        "daemonize": {"description": "Run the script detached from the module's output.", "type": "bool",
                      "default": False},
    },
}

EXAMPLES = """
- name: Start apache2 and enable it in runlevels 3 and 5
  sysvinit:
    name: apache2
    state: started
    enabled: true
    runlevels: ["3", "5"]
"""

RETURN = {"name": "The service's name", "state": "Its state as asked", "enabled": "Whether it starts at boot",
          "status": "For enabled and the state: whether each changed (and the runlevels asked)",
          "diff": "state/enabled before and after"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_one_of": [["state", "enabled"]]}
SUPPORTS_CHECK_MODE = True


def enabled_in(name, level):
    return bool(glob.glob("/etc/rc%s.d/S[0-9][0-9]%s" % (level, name)))


def plan_runlevels(module, service, change, enabled, runlevels):
    """update-rc.d NAME enable|disable LEVELS for the runlevels that differ."""
    for level in runlevels:
        if len(level) != 1 or level not in "0123456S":
            module.fail("Illegal runlevel specified for enable operation on service %s" % service.name)
    differ = [level for level in runlevels if enabled_in(service.name, level) != enabled]
    if not differ:
        return
    update_rc = module.get_bin_path("update-rc.d", required=True)
    if enabled and not service.links("S") and not service.links("K"):
        change.actions.append(("enable", [update_rc, service.name, "defaults"]))
    before = dict((level, enabled_in(service.name, level)) for level in runlevels)
    change.add("enable" if enabled else "disable",
               [update_rc, service.name, "enable" if enabled else "disable", *runlevels],
               "enabled", before, dict((level, enabled) for level in runlevels))


def detached(module, argv):
    """Run ``argv`` in a session of its own with its output in a file: a daemon it leaves behind keeps that
    file open, not the module's pipes. (rc, out, err)."""
    output = os.path.join(module.tmpdir, "sysvinit-%d.out" % os.getpid())
    try:
        with open(output, "wb") as handle:
            rc = subprocess.call(argv, stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT,
                                 start_new_session=True, env=dict(os.environ, LANG="C"))
        with open(output, "rb") as handle:
            return rc, handle.read().decode("utf-8", "replace"), ""
    except OSError as exc:
        return 127, "", error_text(exc)
    finally:
        if os.path.exists(output):
            os.unlink(output)


def run(module):
    params = module.params
    service = SysVService(module, params["name"], params["arguments"], params["pattern"])
    change = ServiceChange(params["name"])
    result = {"name": params["name"], "changed": False, "status": {}}
    if params["enabled"] is not None:
        before = len(change.actions)
        if params["runlevels"]:
            plan_runlevels(module, service, change, params["enabled"], params["runlevels"])
        else:
            service.plan_enabled(change, params["enabled"])
        result["enabled"] = params["enabled"]
        result["status"]["enabled"] = {"changed": len(change.actions) > before}
        if params["runlevels"]:
            result["status"]["enabled"]["runlevels"] = params["runlevels"]
    if params["state"]:
        before = len(change.actions)
        plan_state(change, service.running(), params["state"], service.control, params["sleep"])
        result["state"] = params["state"]
        result["status"][params["state"]] = {"changed": len(change.actions) > before}
    runner = None
    if params["daemonize"]:
        def runner(what, argv):
            if what in ("enable", "disable"):
                return module.run_command(argv, environ_update={"LANG": "C"})
            return detached(module, argv)
    run_actions(module, change, params["sleep"], runner)
    return finish(module, result, change)
