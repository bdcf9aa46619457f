"""Add a host (and its groups and variables) to the inventory of the running playbook."""

ACTION = "add_host"
ANY_ARGUMENTS = True
DOCUMENTATION = {
    "short_description": "Add a host (and alternatively a group) to the in-memory inventory",
    "description": ["The host is usable by later plays of the same run. Other arguments become host "
                    "variables."],
    "options": {
        "name": {"description": "The hostname/IP of the host to add.", "type": "str", "required": True,
                 "aliases": ["host", "hostname"]},
        "groups": {"description": "The groups to add the host to.", "type": "list",
                   "aliases": ["group", "groupname"]},
    },
}
EXAMPLES = """
- add_host:
    name: "{{ new_ip }}"
    groups: just_created
    ansible_user: deploy
"""
RETURN = {"add_host": "The host and groups added"}
ARGUMENT_SPEC = {}  # type: dict
