"""Check arguments against an argument spec (the action runs on the controller)."""

ACTION = "validate_argument_spec"
DOCUMENTATION = {
    "short_description": "Validate role argument specs.",
    "description": ["Checks provided_arguments, and the variables named in argument_spec, against argument_spec "
                    "(a role's meta/argument_specs.yml entry point's options, types, choices and required "
                    "options), as a role's argument validation does; a failure lists what is wrong."],
    "options": {
        "argument_spec": {"description": "The options to check against, as a module's argument spec.",
                          "type": "dict", "required": True},
        "provided_arguments": {"description": "The values to check (the task's variables of the same names "
                                              "are checked too, these win).", "type": "dict"},
        "validate_args_context": {"description": "What the check is for (a role's name, its entry point), "
                                                 "returned as it is so a failure says where it came from.",
                                  "type": "dict"},
    },
}
EXAMPLES = """
- name: The role's own arguments
  validate_argument_spec:
    argument_spec:
      port: {type: int, required: true}
      mode: {type: str, choices: [primary, replica]}
    provided_arguments:
      port: "{{ db_port }}"
"""
RETURN = {"argument_errors": "What is wrong, one message each", "argument_spec_data": "The spec checked",
          "validate_args_context": "Where the check came from, as the task gave it"}
ARGUMENT_SPEC = {
    "argument_spec": {"type": "dict", "required": True},
    "provided_arguments": {"type": "dict", "default": {}},
    "validate_args_context": {"type": "dict", "default": {}},
}
