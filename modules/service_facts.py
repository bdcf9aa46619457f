"""The host's services and their states as facts: ansible_facts.services, by name."""

import re

from modules._services import systemd_runs

DOCUMENTATION = {
    "short_description": "Return service state information as fact data",
    "description": [
        "Sets ansible_facts.services: each service's name maps to name, state (running, stopped, ...), source "
        "(sysv or systemd) and, for systemd units, status (enabled, disabled, static, masked, failed ...).",
        "SysV services are read as service --status-all lists them (scripts without a status action are left "
        "out, as there); systemd units with systemctl list-units and list-unit-files where systemd runs.",
        "Nothing found means a skipped result, as in ansible-core. Upstart, OpenRC, AIX and BSD init are not "
        "read. It changes nothing.",
    ],
    "options": {},
}

EXAMPLES = """
- name: Gather the service facts
  service_facts:

- name: Say whether cron runs
  debug:
    msg: "{{ ansible_facts.services['cron'].state }}"
"""

RETURN = {"ansible_facts": "services: name -> {name, state, source, status (systemd)}"}

ARGUMENT_SPEC = {}  # type: dict
SUPPORTS_CHECK_MODE = True

C_LOCALE = {"LANG": "C", "LC_ALL": "C"}
STATUS_ALL_LINE = re.compile(r"^\s*\[ (?P<state>[+-]) \]\s+(?P<name>.+)$", re.M)
BAD_STATES = frozenset(["not-found", "masked", "failed"])


def sysv_services(module):
    service = module.get_bin_path("service")
    if not service:
        return {}
    rc, out, err = module.run_command([service, "--status-all"], environ_update=C_LOCALE)
    if rc != 0:
        module.warn("Unable to query 'service' tool (%s): %s" % (rc, err))
    found = {}
    for match in STATUS_ALL_LINE.finditer(out):
        name = match.group("name").strip()
        found[name] = {"name": name, "state": "running" if match.group("state") == "+" else "stopped",
                       "source": "sysv"}
    return found


def systemd_units(module):
    if not systemd_runs():
        return {}
    systemctl = module.get_bin_path("systemctl", extra_dirs=["/usr/bin", "/usr/local/bin"])
    if not systemctl:
        return {}
    found = {}
    rc, out, err = module.run_command([systemctl, "list-units", "--no-pager", "--type", "service", "--all",
                                       "--plain"], environ_update=C_LOCALE)
    if rc != 0:
        module.warn("Could not list units from systemd: %s" % err)
    for line in (line for line in out.splitlines() if ".service" in line):
        fields = line.split()
        if len(fields) < 4:
            continue
        bad = [state for state in fields[:-1] if state in BAD_STATES]
        found[fields[0]] = {"name": fields[0], "state": "running" if fields[3] == "running" else "stopped",
                            "status": bad[0] if bad else fields[2], "source": "systemd"}
    rc, out, err = module.run_command([systemctl, "list-unit-files", "--no-pager", "--type", "service", "--all"],
                                      environ_update=C_LOCALE)
    if rc != 0:
        module.warn("Could not get unit files data from systemd: %s" % err)
    for line in (line for line in out.splitlines() if ".service" in line):
        fields = line.split()
        if len(fields) < 2:
            module.fail("Malformed output discovered from systemd list-unit-files: %s" % line)
        name, status = fields[:2]
        if name not in found:
            rc, shown, _err = module.run_command([systemctl, "show", name, "--property=ActiveState"],
                                                 environ_update=C_LOCALE)
            state = shown.replace("ActiveState=", "").strip() if rc == 0 and shown else "unknown"
            found[name] = {"name": name, "state": state, "status": status, "source": "systemd"}
        elif found[name]["status"] not in BAD_STATES:
            found[name]["status"] = status
    return found


def run(module):
    services = sysv_services(module)
    services.update(systemd_units(module))
    if not services:
        return {"changed": False, "skipped": True,
                "msg": "Failed to find any services. This can be due to privileges or some other configuration "
                       "issue."}
    return {"changed": False, "ansible_facts": {"services": services}}
