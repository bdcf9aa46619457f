"""Set host variables that later tasks (and other hosts, through hostvars) can read."""

ACTION = "set_fact"
ANY_ARGUMENTS = True
DOCUMENTATION = {
    "short_description": "Set host variable(s) and fact(s)",
    "description": ["Sets variables for the current host; they take precedence over inventory, play and role "
                    "variables, and last for the rest of the run."],
    "options": {
        "key_value": {"description": "Any key=value pairs: each becomes a variable.", "type": "raw"},
        "cacheable": {"description": "Accepted for compatibility (facts are not cached between runs).",
                      "type": "bool", "default": False},
    },
}
EXAMPLES = """
- set_fact:
    web_port: 8080
    web_url: "http://{{ inventory_hostname }}:8080"
"""
RETURN = {"ansible_facts": "The variables set"}
ARGUMENT_SPEC = {}  # type: dict
