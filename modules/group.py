"""Add, change or remove local groups with groupadd, groupmod and groupdel."""

from modules._accounts import FieldChanges, group_entry, run_account_command
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Add or remove groups",
    "description": ["Manages local groups with groupadd, groupmod and groupdel; the diff shows the gid changed."],
    "options": {
        "name": {"description": "Name of the group.", "type": "str", "required": True},
        "gid": {"description": "The group's numeric id.", "type": "int"},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "system": {"description": "Create a system group (an id from the system range).", "type": "bool",
                   "default": False},
        "non_unique": {"description": "Allow a gid that another group already has (with gid).", "type": "bool",
                       "default": False},
        "force": {"description": "With state absent, remove the group even when it is a user's primary group.",
                  "type": "bool", "default": False},
        "local": {"description": "Accepted for compatibility: groups are always managed with the shadow tools.",
                  "type": "bool", "default": False},
        "gid_min": {"description": "GID_MIN for creating the group, overriding /etc/login.defs (not with local).",
                    "type": "int"},
        "gid_max": {"description": "GID_MAX for creating the group, overriding /etc/login.defs (not with local).",
                    "type": "int"},
    },
}

EXAMPLES = """
- name: A group for the application
  group:
    name: app
    gid: 2000
"""

RETURN = {"name": "The group's name", "gid": "Its numeric id", "state": "present or absent",
          "system": "Whether it was created as a system group"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_if": [["non_unique", True, ["gid"]]]}
SUPPORTS_CHECK_MODE = True


def run(module):
    params = module.params
    name = params["name"]
    for limit in ("gid_min", "gid_max"):
        if params["local"] and params[limit] is not None:
            module.fail("'%s' can not be used with 'local'" % limit)
    current = group_entry(name)
    result = {"name": name, "state": params["state"], "system": params["system"], "changed": False}
    changes = FieldChanges(name)
    if params["state"] == "absent":
        if current is None:
            return result
        changes.add("state", "present", "absent", [])
        argv = [module.get_bin_path("groupdel", required=True)] + (["-f"] if params["force"] else []) + [name]
        what = "groupdel"
    elif current is None:
        changes.add("state", "absent", "present", [])
        argv = [module.get_bin_path("groupadd", required=True)]
        if params["gid"] is not None:
            argv += ["-g", str(params["gid"])] + (["-o"] if params["non_unique"] else [])
            changes.add("gid", None, params["gid"], [])
        if params["system"]:
            argv.append("-r")
        for limit in ("gid_min", "gid_max"):
            if params[limit] is not None:
                argv += ["-K", "%s=%d" % (limit.upper(), params[limit])]
        argv.append(name)
        what = "groupadd"
    else:
        result["gid"] = current.gr_gid
        if params["gid"] is None or params["gid"] == current.gr_gid:
            return result
        options = ["-g", str(params["gid"])] + (["-o"] if params["non_unique"] else [])
        changes.add("gid", current.gr_gid, params["gid"], options)
        argv = [module.get_bin_path("groupmod", required=True), *changes.options, name]
        what = "groupmod"
    if not module.check_mode:
        run_account_command(module, argv, what)
    after = group_entry(name)
    if after is not None:
        result["gid"] = after.gr_gid
    elif params["gid"] is not None and params["state"] == "present":
        result["gid"] = params["gid"]
    result.update(changed=True, diff=changes.diff)
    return result
