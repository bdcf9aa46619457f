"""Load variables from a YAML/JSON file or a directory of them, per host, while the play runs."""

ACTION = "include_vars"
FREE_FORM = "file"
DOCUMENTATION = {
    "short_description": "Load variables from files, dynamically within a task",
    "description": ["Loads YAML/JSON variables from a file or every file of a directory (sorted), looked up in "
                    "the role's or playbook's vars/ directory first. They take set_fact precedence."],
    "options": {
        "file": {"description": "The file to load (free form too).", "type": "path"},
        "dir": {"description": "A directory whose files are all loaded, in sorted order.", "type": "path"},
        "name": {"description": "Put all the loaded variables under this one name.", "type": "str"},
        "extensions": {"description": "File extensions read from a dir.", "type": "list",
                       "default": ["json", "yaml", "yml"]},
    },
}
EXAMPLES = """
- include_vars: "{{ ansible_os_family }}.yml"
- include_vars:
    dir: vars/all
    name: settings
"""
RETURN = {"ansible_included_var_files": "The files loaded", "ansible_facts": "The variables loaded"}
ARGUMENT_SPEC = {
    "file": {"type": "str", "aliases": ["_raw_params"]},
    "dir": {"type": "str"},
    "name": {"type": "str"},
    "extensions": {"type": "list", "default": ["json", "yaml", "yml"]},
}
SPEC_RULES = {"mutually_exclusive": [["file", "dir"]]}
