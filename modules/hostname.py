"""Set the host's name: /etc/hostname and the running hostname."""

import os
import socket

from modules._services import systemd_runs
from modules._spec import argument_spec
from modules._textfile import ContentChange

DOCUMENTATION = {
    "short_description": "Manage hostname",
    "description": [
        "Writes /etc/hostname atomically and sets the running hostname (sethostname, or hostnamectl where "
        "systemd runs). The running name belongs to the host's UTS namespace: on a container that has its own, "
        "as the local test hosts do, only that container is renamed.",
        "/etc/hosts is not changed, as in Ansible.",
    ],
    "options": {
        "name": {"description": "The host's name.", "type": "str", "required": True},
        "use": {"description": "The strategy: systemd (hostnamectl), debian or generic (/etc/hostname and "
                               "sethostname); by default, systemd where it runs, else debian.", "type": "str",
                "choices": ["alpine", "debian", "generic", "systemd", "redhat", "openrc", "sles"]},
    },
}

EXAMPLES = """
- name: Name the host after its inventory name
  hostname:
    name: "{{ inventory_hostname }}"
"""

RETURN = {"name": "The name set", "ansible_facts": "ansible_hostname, ansible_nodename, ansible_fqdn, ansible_domain"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True
HOSTNAME_FILE = "/etc/hostname"


def read_file_name(module):
    if not module.lexists(HOSTNAME_FILE) or not os.path.exists(HOSTNAME_FILE):
        return None, ""
    with open(HOSTNAME_FILE, "rb") as handle:
        data = handle.read()
    return data, data.decode("utf-8", "replace").strip()


def facts(name):
    short, _, domain = name.partition(".")
    return {"ansible_hostname": short, "ansible_nodename": name, "ansible_fqdn": name, "ansible_domain": domain}


def run(module):
    name = module.params["name"].strip()
    if not name or any(ch.isspace() for ch in name):
        module.fail("name: '%s' is not a valid hostname" % module.params["name"])
    use = module.params["use"] or ("systemd" if systemd_runs() else "debian")
    original, in_file = read_file_name(module)
    running = socket.gethostname()
    before = "hostname = %s\n" % running
    if in_file != running:
        before += "%s = %s\n" % (HOSTNAME_FILE, in_file)
    result = {"name": name, "changed": False, "ansible_facts": facts(name)}
    if in_file == name and running == name:
        return result
    result.update(changed=True, diff={"before": before, "after": "hostname = %s\n" % name})
    if module.check_mode:
        return result
    if use == "systemd":
        module.run_command([module.get_bin_path("hostnamectl", required=True), "set-hostname", name],
                           check_rc=True)
        return result
    if in_file != name:
        ContentChange(module, HOSTNAME_FILE, original, (name + "\n").encode("utf-8")).write()
    if running != name:
        try:
            socket.sethostname(name)
        except OSError as exc:
            module.fail("Failed to set the running hostname to %s: %s" % (name, exc.strerror or exc))
    return result
