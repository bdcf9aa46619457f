"""Load variables from a YAML/JSON file or a directory of them, per host, while the play runs."""

from modules._spec import argument_spec

ACTION = "include_vars"
FREE_FORM = "file"
DOCUMENTATION = {
    "short_description": "Load variables from files, dynamically within a task",
    "description": ["Loads YAML/JSON variables from a file or every file of a directory (sorted), looked up in "
                    "the role's or playbook's vars/ directory first. They take set_fact precedence."],
    "options": {
        "file": {"description": "The file to load (free form too).", "type": "path"},
        "dir": {"description": "A directory whose files are all loaded, directory by directory in sorted order "
                               "(symlinks followed).", "type": "path"},
        "name": {"description": "Put all the loaded variables under this one name.", "type": "str"},
        "depth": {"description": "How deep into dir to go; 0 is every level.", "type": "int", "default": 0},
        "files_matching": {"description": "Load only the files of dir whose name this regular expression finds.",
                           "type": "str"},
        "ignore_files": {"description": "Regular expressions (matching a name's end) of files of dir to skip.",
                         "type": "list", "elements": "str"},
        "extensions": {"description": "File extensions read from a dir ('' for none).", "type": "list",
                       "elements": "str", "default": ["json", "yaml", "yml"]},
        "ignore_unknown_extensions": {"description": "Skip files of dir with another extension; otherwise they "
                                                     "fail the task.", "type": "bool", "default": False},
        "hash_behaviour": {"description": "merge: mappings merge recursively into the host's variables of the "
                                          "same names; replace (the default): they replace them.", "type": "str",
                           "choices": ["replace", "merge"]},
    },
}
EXAMPLES = """
- include_vars: "{{ ansible_os_family }}.yml"
- include_vars:
    dir: vars/all
    name: settings
"""
RETURN = {"ansible_included_var_files": "The files loaded", "ansible_facts": "The variables loaded"}
ARGUMENT_SPEC = dict(argument_spec(DOCUMENTATION["options"]), file={"type": "str", "aliases": ["_raw_params"]},
                     dir={"type": "str"})
SPEC_RULES = {"mutually_exclusive": [["file", "dir"]]}
