"""Pause the playbook for a number of seconds or minutes."""

ACTION = "pause"
DOCUMENTATION = {
    "short_description": "Pause playbook execution",
    "description": ["Waits for the given time. Interactive prompts are not supported: runs are unattended."],
    "options": {
        "seconds": {"description": "Seconds to pause.", "type": "float"},
        "minutes": {"description": "Minutes to pause.", "type": "float"},
        "prompt": {"description": "Accepted for compatibility; ignored (no interactive input).", "type": "str"},
        "echo": {"description": "Accepted for compatibility.", "type": "bool", "default": True},
    },
}
EXAMPLES = """
- pause:
    seconds: 5
"""
RETURN = {"delta": "Seconds paused", "stdout": "Output of the pause"}
ARGUMENT_SPEC = {
    "seconds": {"type": "float"},
    "minutes": {"type": "float"},
    "prompt": {"type": "str"},
    "echo": {"type": "bool", "default": True},
}
SPEC_RULES = {"mutually_exclusive": [["seconds", "minutes"]]}
