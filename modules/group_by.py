"""Create groups from facts: each host joins the group named by key."""

ACTION = "group_by"
DOCUMENTATION = {
    "short_description": "Create Ansible groups based on facts",
    "description": ["Adds the current host to the group named by key (created when missing)."],
    "options": {
        "key": {"description": "The group to add the host to.", "type": "str", "required": True},
        "parents": {"description": "Parent groups of the new group.", "type": "list", "default": ["all"]},
    },
}
EXAMPLES = """
- group_by:
    key: os_{{ ansible_distribution }}
"""
RETURN = {"add_group": "The group name"}
ARGUMENT_SPEC = {
    "key": {"type": "str", "required": True},
    "parents": {"type": "list", "default": ["all"]},
}
