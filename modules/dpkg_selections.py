"""Set a Debian package's dpkg selection: install, hold, deinstall or purge."""

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Dpkg package selection selections",
    "description": [
        "Reads the package's selection with dpkg --get-selections and sets it with dpkg --set-selections when "
        "it differs. hold keeps apt from upgrading (or removing) the package.",
        "Only the selection changes: no package is installed or removed by this module.",
        "A package dpkg has never heard of fails the task.",
    ],
    "options": {
        "name": {"description": "Name of the package.", "type": "str", "required": True},
        "selection": {"description": "The selection state to set.", "type": "str", "required": True,
                      "choices": ["install", "hold", "deinstall", "purge"]},
    },
}

EXAMPLES = """
- name: Keep apt from upgrading python3
  dpkg_selections:
    name: python3
    selection: hold
"""

RETURN = {"before": "The selection before ('not present' when dpkg holds none)", "after": "The selection after"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

DPKG_ENV = {"LANG": "C", "LC_ALL": "C", "LC_MESSAGES": "C", "LANGUAGE": "C"}


def run(module):
    params = module.params
    name, selection = params["name"], params["selection"]
    dpkg = module.get_bin_path("dpkg", required=True)
    rc, out, err = module.run_command([dpkg, "--get-selections", name], environ_update=DPKG_ENV)
    if "no packages found matching" in err:
        module.fail("Failed to find package '%s' to perform selection '%s'." % (name, selection))
    if rc != 0:
        module.fail(err.strip() or "dpkg --get-selections failed", rc=rc, stdout=out, stderr=err)
    current = out.split()[1] if out.split() else "not present"
    result = {"changed": current != selection, "before": current, "after": selection}
    if result["changed"] and module.diff_mode:
        result["diff"] = {"before": "%s %s\n" % (name, current), "after": "%s %s\n" % (name, selection),
                          "before_header": "dpkg selection", "after_header": "dpkg selection"}
    if result["changed"] and not module.check_mode:
        module.run_command([dpkg, "--set-selections"], data="%s %s" % (name, selection), check_rc=True,
                           environ_update=DPKG_ENV)
    return result
