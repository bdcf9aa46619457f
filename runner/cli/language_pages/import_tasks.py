"""Documentation of the import_tasks action, which the compiler carries out (no module runs)."""

DOCUMENTATION = {
    "short_description": "Import a task list",
    "description": [
        "Reads a file of tasks when the playbook compiles: its tasks take the import's place, with the import's "
        "keywords (when, tags, become, ...) added to each. Its name may use variables known then (play and extra "
        "variables, inventory variables); a name known only at run time needs include_tasks.",
    ],
    "options": {
        "file": {"description": "The task file to import (free form too).", "type": "str"},
        "free_form": {"description": "The task file, as import_tasks: FILE.", "type": "str"},
    },
}
EXAMPLES = """
- name: The common tasks, tagged
  import_tasks: common.yml
  tags: [common]
"""
RETURN: dict = {}
