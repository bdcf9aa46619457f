"""Documentation of the include_tasks action, which the compiler and the executor carry out (no module runs)."""

DOCUMENTATION = {
    "short_description": "Dynamically include a task list",
    "description": [
        "Reads a file of tasks while the play runs, for each host that reaches it: its name may use any variable, "
        "and a loop includes it once per item. Its tasks are run as if written in its place.",
        "The file is looked up in the role's tasks/ directory, then beside the including file and the playbook.",
    ],
    "options": {
        "file": {"description": "The task file to include (free form too).", "type": "str"},
        "free_form": {"description": "The task file, as include_tasks: FILE.", "type": "str"},
        "apply": {"description": "Keywords (tags, become, when, ...) applied to every task the file holds.",
                  "type": "dict"},
    },
}
EXAMPLES = """
- name: The tasks of this OS family
  include_tasks: "{{ ansible_facts.os_family | lower }}.yml"

- name: Once per user, with tags applied inside
  include_tasks:
    file: user.yml
    apply:
      tags: [users]
  loop: "{{ users }}"
"""
RETURN: dict = {}
