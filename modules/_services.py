"""Services on a host: systemd units through systemctl, and SysV init scripts with update-rc.d links.

The service module picks one by what runs on the host (systemd only where /run/systemd/system exists); the
systemd module uses the systemd side alone. Both decide what to do from the service's current state, so a second
run changes nothing, and check mode runs no command that changes anything.
"""

import glob
import os
import time

SYSTEMD_RUNTIME = "/run/systemd/system"
INIT_DIR = "/etc/init.d"
# Runlevels whose S links make a SysV service start at boot (Debian's default multi-user levels).
BOOT_RUNLEVELS = "2345"


# The systemd module's options (the service module takes them too where systemd runs).
SYSTEMD_OPTIONS = {  # type: dict
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
}


def systemd_runs():
    """Whether systemd is the running init (sd_booted's test)."""
    return os.path.isdir(SYSTEMD_RUNTIME)


def process_matches(pattern):
    """Whether a process other than this one has ``pattern`` in its command line (as ``ps auxww | grep``)."""
    own = {os.getpid(), os.getppid()}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in own:
            continue
        try:
            with open("/proc/%s/cmdline" % entry, "rb") as handle:
                cmdline = handle.read().replace(b"\x00", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        if pattern in cmdline:
            return True
    return False


class ServiceChange(object):
    """What a run would do to one service: the commands to run, and the before/after of the diff."""

    def __init__(self, name):
        self.name = name
        self.actions = []  # (what, [argv]) in order
        self.diff = {"before": {"name": name}, "after": {"name": name}}

    def add(self, what, argv, key, before, after):
        self.actions.append((what, argv))
        self.diff["before"][key] = before
        self.diff["after"][key] = after

    @property
    def changed(self):
        return bool(self.actions)


def run_actions(module, change, sleep=None, runner=None):
    """Run the change's commands (nothing in check mode); a failing one fails the module naming it.

    ``runner(what, argv)`` -> (rc, out, err) runs a command another way (sysvinit's daemonize).
    """
    if module.check_mode:
        return
    for what, argv in change.actions:
        if what == "sleep":
            time.sleep(sleep)
            continue
        if runner is not None:
            rc, out, err = runner(what, argv)
        else:
            rc, out, err = module.run_command(argv, environ_update={"LANG": "C"})
        if rc != 0:
            if what in ("mask", "unmask"):  # ansible-core's systemd words these differently
                module.fail("Failed to %s the service (%s): %s" % (what, change.name, err.strip()), rc=rc,
                            stdout=out, stderr=err)
            module.fail("Unable to %s service %s: %s" % (what, change.name, (err or out).strip()), rc=rc,
                        stdout=out, stderr=err)


def reported_state(state):
    """The state a result reports, as ansible-core's service and systemd do: what the service is after the task,
    so a restart or reload reports it started."""
    return "started" if state in ("restarted", "reloaded") else state


def finish(module, result, change):
    """Put the change into ``result``: whether it changed, and its before/after only in diff mode (where
    ansible-core's modules attach a diff at all)."""
    result["changed"] = change.changed
    if change.changed and module.diff_mode:
        result["diff"] = change.diff
    return result


def plan_state(change, running, state, control, sleep=None):
    """Add what brings a service to ``state`` (started/stopped/restarted/reloaded) given whether it runs.

    ``control(action)`` is the command line for start/stop/restart/reload.
    """
    if state == "started" and not running:
        change.add("start", control("start"), "state", "stopped", "started")
    elif state == "stopped" and running:
        change.add("stop", control("stop"), "state", "started", "stopped")
    elif state == "restarted":
        if sleep and running:
            change.add("stop", control("stop"), "state", "started", "restarted")
            change.actions.append(("sleep", None))
            change.actions.append(("start", control("start")))
        else:
            change.add("restart", control("restart"), "state", "started" if running else "stopped", "restarted")
    elif state == "reloaded":
        # a stopped service cannot reload: it is started, as Ansible does
        action = "reload" if running else "start"
        change.add(action, control(action), "state", "started" if running else "stopped", "reloaded")


# -- SysV init scripts ------------------------------------------------------------------------------------------
class SysVService(object):
    """A service with an init script in /etc/init.d, enabled through its /etc/rc?.d links."""

    def __init__(self, module, name, arguments=None, pattern=None):
        self.module = module
        self.name = name
        self.script = os.path.join(INIT_DIR, name)
        self.arguments = arguments.split() if arguments else []
        self.pattern = pattern
        if not os.path.isfile(self.script):
            module.fail("Could not find the requested service %s: no init script %s and systemd does not run "
                        "on this host" % (name, self.script))

    def control(self, action):
        # The script itself, not invoke-rc.d: policy-rc.d governs package scripts, not an operator's request.
        return [self.script, action, *self.arguments]

    def running(self):
        if self.pattern:
            return process_matches(self.pattern)
        rc, _out, _ = self.module.run_command([self.script, "status"], environ_update={"LANG": "C"})
        if rc in (0, 3, 4):
            return rc == 0
        # A script without a status action: look for a process named like the service.
        return process_matches(self.name)

    def links(self, kind):
        return glob.glob("/etc/rc[0-6S].d/%s[0-9][0-9]%s" % (kind, self.name))

    def enabled(self):
        return any(os.path.basename(os.path.dirname(link))[2] in BOOT_RUNLEVELS for link in self.links("S"))

    def plan_enabled(self, change, enabled):
        update_rc = self.module.get_bin_path("update-rc.d", required=True)
        current = self.enabled()
        if enabled == current:
            return
        if enabled and not self.links("K"):
            change.actions.append(("enable", [update_rc, self.name, "defaults"]))
        change.add("enable" if enabled else "disable", [update_rc, self.name, "enable" if enabled else "disable"],
                   "enabled", current, enabled)


# -- systemd ---------------------------------------------------------------------------------------------------
def unit_name(name):
    return name if "." in name and name.rsplit(".", 1)[1] in UNIT_TYPES else name + ".service"


# is-enabled answers (exit 0) that ansible-core does not take as enabled: asked to enable such a unit, it runs
# systemctl enable (a runtime enablement made permanent, an indirect unit's own links, an alias left to systemd).
NOT_ENABLED = ("enabled-runtime", "indirect", "alias")

UNIT_TYPES = ("service", "socket", "device", "mount", "automount", "swap", "target", "path", "timer", "slice",
              "scope")


def parse_show(text):
    """``systemctl show`` output -> dict (multi-line values such as ExecStart kept to their first line)."""
    properties = {}
    for line in text.splitlines():
        key, sep, value = line.partition("=")
        if sep and key and key not in properties:
            properties[key] = value
    return properties


class SystemdUnit(object):
    """A unit managed with systemctl (system scope unless told otherwise)."""

    def __init__(self, module, name, scope="system", no_block=False, force=False):
        if not systemd_runs():
            module.fail("systemd is not running on this host (no %s): use the service module, which drives "
                        "init scripts" % SYSTEMD_RUNTIME)
        self.module = module
        self.name = name
        self.unit = unit_name(name)
        self.systemctl = [module.get_bin_path("systemctl", required=True)]
        if scope != "system":
            self.systemctl.append("--%s" % scope)
        if no_block:
            self.systemctl.append("--no-block")
        if force:
            self.systemctl.append("--force")

    def show(self):
        rc, out, err = self.module.run_command([*self.systemctl, "show", self.unit], environ_update={"LANG": "C"})
        if rc != 0:
            self.module.fail("Error loading unit file '%s': %s" % (self.name, err.strip()), rc=rc)
        return parse_show(out)

    def require_found(self, status):
        if status.get("LoadState") == "not-found":
            self.module.fail("Could not find the requested service %s: host" % self.name, status=status)

    def control(self, action):
        return [*self.systemctl, action, self.unit]

    @staticmethod
    def running(status):
        return status.get("ActiveState") in ("active", "activating", "reloading")

    def enabled(self):
        """Whether the unit counts as enabled, read as ansible-core reads ``is-enabled -l``: any state systemctl
        answers 0 for (static included) but these three. With ``-l`` a unit enabled through another one (Also=)
        prints "indirect" followed by the links that do it, so only a bare "indirect" is not enabled."""
        rc, out, _ = self.module.run_command([*self.systemctl, "is-enabled", self.unit, "-l"])
        return rc == 0 and out.rstrip() not in NOT_ENABLED

    def plan_enabled(self, change, enabled):
        current = self.enabled()
        if enabled != current:
            action = "enable" if enabled else "disable"
            change.add(action, self.control(action), "enabled", current, enabled)

    def plan_masked(self, change, masked, status):
        current = status.get("LoadState") == "masked" or status.get("UnitFileState") in ("masked", "masked-runtime")
        if masked != current:
            action = "mask" if masked else "unmask"
            change.add(action, self.control(action), "masked", current, masked)


def run_systemd(module, params):
    """The systemd module's work on ``params`` (the service module's too, where systemd runs)."""
    result = {"changed": False}  # type: dict
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
        result["state"] = reported_state(params["state"])
    run_actions(module, change)
    return finish(module, result, change)
