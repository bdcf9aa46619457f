"""Fail with a custom message."""

ACTION = "fail"
DOCUMENTATION = {
    "short_description": "Fail with custom message",
    "description": ["Fails the task (usually with a when: condition), printing msg."],
    "options": {"msg": {"description": "The failure message.", "type": "str",
                        "default": "Failed as requested from task"}},
}
EXAMPLES = """
- fail:
    msg: "The system may not be provisioned according to the CMDB status."
  when: cmdb_status != "to-be-staged"
"""
RETURN = {"msg": "The failure message"}
ARGUMENT_SPEC = {"msg": {"type": "str", "default": "Failed as requested from task"}}
