"""Assert that given expressions are true."""

ACTION = "assert"
DOCUMENTATION = {
    "short_description": "Asserts given expressions are true",
    "description": ["Fails the task when any expression is false, with an optional message."],
    "options": {
        "that": {"description": "Expressions (as in when) that must all be true.", "type": "list",
                 "required": True},
        "fail_msg": {"description": "Message used for a failing assertion.", "type": "str", "aliases": ["msg"]},
        "success_msg": {"description": "Message used when all assertions pass.", "type": "str"},
        "quiet": {"description": "Make the result less verbose.", "type": "bool", "default": False},
    },
}
EXAMPLES = """
- assert:
    that:
      - web_port is number
      - web_port > 1024
    fail_msg: "web_port must be a high port"
"""
RETURN = {"assertion": "The first expression that was false", "evaluated_to": "False for a failed assertion"}
ARGUMENT_SPEC = {
    "that": {"type": "list", "required": True},
    "fail_msg": {"type": "str", "aliases": ["msg"]},
    "success_msg": {"type": "str"},
    "quiet": {"type": "bool", "default": False},
}
