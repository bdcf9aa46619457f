"""Documentation of import_playbook, which the compiler carries out (no module runs)."""

DOCUMENTATION = {
    "short_description": "Import a playbook",
    "description": [
        "Adds another playbook's plays in place, at the level of plays (never inside a play's tasks), when the "
        "playbook compiles. A relative path is relative to the importing playbook.",
    ],
    "options": {
        "free_form": {"description": "The playbook file to import, as import_playbook: FILE.", "type": "str"},
    },
}
EXAMPLES = """
- import_playbook: webservers.yml
- import_playbook: databases.yml
"""
RETURN: dict = {}
