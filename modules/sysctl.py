"""Manage kernel parameters in a sysctl configuration file, and apply them where the kernel is the host's own."""

import os

from modules._spec import argument_spec
from modules._textfile import ContentChange, content_diff
from modules._utils import BOOLEANS_FALSE, BOOLEANS_TRUE

DOCUMENTATION = {
    "short_description": "Manage entries in sysctl.conf",
    "description": [
        "Writes name=value to sysctl_file atomically (replacing the entry where it is, dropping duplicates), or "
        "removes it; the diff shows the file before and after.",
        "reload runs sysctl -p on the file after a change; sysctl_set compares the running value and sets it "
        "with sysctl -w. Both only where the host owns its kernel: in a container (its processes in a PID "
        "namespace of their own, as the local test hosts are) kernel settings may belong to the machine that "
        "runs it, so the file is written and a warning says the values were not applied.",
        "Boolean-like values (yes, true, on ...) are written as 1 or 0, as Ansible does.",
    ],
    "options": {
        "name": {"description": "The dot-separated key (e.g. net.ipv4.ip_forward).", "type": "str",
                 "required": True, "aliases": ["key"]},
        "value": {"description": "Desired value; required with state present.", "type": "str",
                  "aliases": ["val"]},
        "state": {"description": "present or absent in the file.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "sysctl_file": {"description": "The configuration file.", "type": "path", "default": "/etc/sysctl.conf"},
        "reload": {"description": "Run sysctl -p on the file when it changed.", "type": "bool", "default": True},
        "sysctl_set": {"description": "Compare the running value and set it with sysctl -w.", "type": "bool",
                       "default": False},
        "ignoreerrors": {"description": "Ignore unknown keys when reloading (sysctl -e).", "type": "bool",
                         "default": False},
    },
}

EXAMPLES = """
- name: Forward IPv4 packets
  sysctl:
    name: net.ipv4.ip_forward
    value: "1"
    sysctl_file: /etc/sysctl.d/90-forward.conf
    sysctl_set: true
"""

RETURN = {"diff": "The file before and after"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_if": [["state", "present", ["value"]]]}
SUPPORTS_CHECK_MODE = True


def normalize_value(value):
    """A value as written and compared: booleans as 1/0, inner whitespace collapsed to single spaces."""
    if value is None:
        return ""
    text = str(value).strip()
    if text.lower() in BOOLEANS_TRUE:
        return "1"
    if text.lower() in BOOLEANS_FALSE and text:
        return "0"
    return " ".join(text.split())


def line_key(line):
    """The key a ``key = value`` line sets, or None for comments and other lines."""
    text = line.strip()
    if not text or text.startswith(("#", ";")) or "=" not in text:
        return None
    return text.split("=", 1)[0].strip().lstrip("-").replace("/", ".")


def line_value(line):
    return normalize_value(line.split("=", 1)[1])


def edit_lines(lines, name, value, state):
    """The file's lines with ``name`` set to ``value`` once (in place of its first line) or removed."""
    result, written = [], False
    for line in lines:
        if line_key(line) != name:
            result.append(line)
        elif state == "present" and not written:
            result.append(line if line_value(line) == value else "%s=%s" % (name, value))
            written = True
    if state == "present" and not written:
        result.append("%s=%s" % (name, value))
    return result


def owns_its_kernel():
    """Whether the host is a whole machine: its processes are in the initial PID namespace, where the kernel's
    own thread kthreadd is PID 2. In a container the kernel's settings may be the machine's."""
    try:
        with open("/proc/2/comm") as handle:
            return handle.read().strip() == "kthreadd"
    except OSError:
        return False


def run(module):
    params = module.params
    name = params["name"].replace("/", ".")
    value = normalize_value(params["value"]) if params["state"] == "present" else None
    path = params["sysctl_file"]
    original = None
    if module.lexists(path) and os.path.exists(path):
        with open(path, "rb") as handle:
            original = handle.read()
    lines = (original or b"").decode("utf-8", "replace").splitlines()
    new_lines = edit_lines(lines, name, value, params["state"])
    result = {"changed": False}
    if new_lines != lines:
        new = "".join(line + "\n" for line in new_lines).encode("utf-8")
        ContentChange(module, path, original, new).write()
        result.update(changed=True, diff=content_diff(path, original, new))
    apply_running(module, name, value, path, result)
    return result


def apply_running(module, name, value, path, result):
    params = module.params
    wants_reload = params["reload"] and result["changed"] and params["state"] == "present"
    if not (params["sysctl_set"] or wants_reload):
        return
    if not owns_its_kernel():
        module.warn("%s was written to %s but not applied: this host runs in a container, whose kernel settings "
                    "may be the machine's" % (name, path))
        return
    sysctl = module.get_bin_path("sysctl", required=True)
    if params["sysctl_set"] and params["state"] == "present":
        rc, out, err = module.run_command([sysctl, "-n", name])
        if rc != 0 and not params["ignoreerrors"]:
            module.fail("Failed to read %s: %s" % (name, err.strip()), rc=rc)
        if rc == 0 and normalize_value(out) != value:
            result["changed"] = True
            result.setdefault("diff", {"before": "%s = %s\n" % (name, out.strip()),
                                       "after": "%s = %s\n" % (name, value)})
            if not module.check_mode:
                module.run_command([sysctl, "-w", "%s=%s" % (name, value)], check_rc=True)
    if wants_reload and not module.check_mode:
        rc, out, err = module.run_command([sysctl] + (["-e"] if params["ignoreerrors"] else []) + ["-p", path])
        if rc != 0:
            module.fail("Failed to reload sysctl: %s" % (err or out).strip(), rc=rc)
