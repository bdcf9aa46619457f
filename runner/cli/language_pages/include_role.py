"""Documentation of the include_role action, which the compiler and the executor carry out (no module runs)."""

from runner.cli.language_pages._role_options import ROLE_OPTIONS

DOCUMENTATION = {
    "short_description": "Load and execute a role",
    "description": [
        "Runs a role while the play runs, for each host that reaches it: its name may use any variable, and a "
        "loop runs it once per item. Its defaults and vars are private to it unless public is true.",
    ],
    "options": dict(ROLE_OPTIONS, apply={"description": "Keywords (tags, become, when, ...) applied to every "
                                                        "task of the role.", "type": "dict"}),
}
EXAMPLES = """
- name: The web server role, with its nginx tasks
  include_role:
    name: webserver
    tasks_from: nginx
  when: "'web' in group_names"
"""
RETURN: dict = {}
