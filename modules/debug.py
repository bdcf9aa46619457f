"""Print statements during execution: a message, or a variable's value."""

ACTION = "debug"
DOCUMENTATION = {
    "short_description": "Print statements during execution",
    "description": ["Prints a message or the value of a variable, without stopping the playbook.",
                    "Runs on the controller; useful with verbosity to debug variables and expressions."],
    "options": {
        "msg": {"description": "The customised message that is printed.", "type": "raw",
                "default": "Hello world!"},
        "var": {"description": "A variable name to print (a Jinja2 expression, without braces).", "type": "str"},
        "verbosity": {"description": "Only print at this verbosity or higher (-v = 1).", "type": "int",
                      "default": 0},
    },
}
EXAMPLES = """
- debug:
    msg: "System {{ inventory_hostname }} has address {{ ansible_default_ipv4.address }}"
- debug:
    var: result.stdout_lines
    verbosity: 2
"""
RETURN = {"msg": "The message printed", "<var>": "The value of the variable named by var"}
ARGUMENT_SPEC = {
    "msg": {"type": "raw", "default": "Hello world!"},
    "var": {"type": "raw"},
    "verbosity": {"type": "int", "default": 0},
}
SPEC_RULES = {"mutually_exclusive": [["msg", "var"]]}
