"""Read a Unix database through getent (passwd, group, hosts, services ...) into facts."""

from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "A wrapper to the unix getent utility",
    "description": [
        "Runs getent DATABASE [KEY...] and returns each entry as ansible_facts.getent_DATABASE: its first field "
        "maps to the list of the others. It changes nothing.",
        "Fields are split on ':' for passwd, shadow, group and gshadow, on whitespace otherwise, unless split "
        "says what to split on.",
    ],
    "options": {
        "database": {"description": "The database (passwd, group, hosts, services, ...).", "type": "str",
                     "required": True},
        "key": {"description": "The entry to look up (every entry when not given).", "type": "str"},
        "split": {"description": "The field separator.", "type": "str"},
        "fail_key": {"description": "Fail when a key is not in the database.", "type": "bool", "default": True},
        "service": {"description": "The NSS service to use (getent -s).", "type": "str"},
    },
}

EXAMPLES = """
- name: Look up the app user
  getent:
    database: passwd
    key: app

- name: Its home directory
  debug:
    msg: "{{ getent_passwd['app'][4] }}"
"""

RETURN = {"ansible_facts": "getent_DATABASE: first field -> list of the other fields"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

COLON_DATABASES = ("passwd", "shadow", "group", "gshadow")
KEY_NOT_FOUND = 2
NO_ENUMERATION = 3


def parse_entries(text, separator):
    """getent's lines -> {first field: [other fields]}; a later entry with the same key keeps the first's."""
    entries = {}  # type: dict
    for line in text.splitlines():
        if not line.strip():
            continue
        fields = line.split(separator) if separator else line.split()
        entries.setdefault(fields[0], fields[1:])
    return entries


def run(module):
    params = module.params
    database = params["database"]
    argv = [module.get_bin_path("getent", required=True)]
    if params["service"]:
        argv += ["-s", params["service"]]
    argv.append(database)
    if params["key"]:
        argv.append(params["key"])
    if params["split"] == "":  # ansible-core 2.21 refuses it (2.19 split on whitespace)
        module.fail("Invalid split value. The value must be a non-empty string")
    separator = params["split"] or (":" if database in COLON_DATABASES else None)
    rc, out, err = module.run_command(argv, environ_update={"LANG": "C"})
    result = {"changed": False}
    if rc == KEY_NOT_FOUND:
        msg = "One or more supplied key could not be found in the database."
        if params["fail_key"]:
            module.fail(msg)
        module.warn(msg)
    elif rc == NO_ENUMERATION:
        module.fail("Enumeration not supported on this database.")
    elif rc != 0:
        module.fail("Missing arguments, or database unknown.", rc=rc, stderr=err)
    result["ansible_facts"] = {"getent_%s" % database: parse_entries(out, separator)}
    return result
