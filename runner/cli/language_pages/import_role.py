"""Documentation of the import_role action, which the compiler carries out (no module runs)."""

from runner.cli.language_pages._role_options import ROLE_OPTIONS

DOCUMENTATION = {
    "short_description": "Import a role into a play",
    "description": [
        "Adds a role's tasks and handlers in place when the playbook compiles, with the import's keywords added "
        "to each task; its defaults and vars are visible to the play's later tasks, as Ansible's are.",
    ],
    "options": dict(ROLE_OPTIONS),
}
EXAMPLES = """
- name: The database role, its replica tasks
  import_role:
    name: database
    tasks_from: replica
"""
RETURN: dict = {}
