"""Record custom statistics of the run (the action runs on the controller)."""

ACTION = "set_stats"
DOCUMENTATION = {
    "short_description": "Define and display stats for the current ansible run",
    "description": ["Returns ansible_stats with data (per host or for the whole run), as Ansible's set_stats "
                    "does; the names in data must be valid variable names."],
    "options": {
        "data": {"description": "The statistics to record, a mapping of names to values.", "type": "dict",
                 "required": True},
        "per_host": {"description": "Keep the statistics per host rather than for the whole run.", "type": "bool",
                     "default": False},
        "aggregate": {"description": "Add to (true) or replace (false) what earlier set_stats recorded.",
                      "type": "bool", "default": True},
    },
}
EXAMPLES = """
- name: Count the deployed release
  set_stats:
    data:
      deployed_release: "{{ release }}"
    per_host: true
"""
RETURN = {"ansible_stats": "data, per_host and aggregate as recorded"}
# per_host and aggregate are read as Ansible's action reads them, leniently: any value that is not a true word
# is false (so the action converts them, not the argument check).
ARGUMENT_SPEC = {
    "data": {"type": "raw", "required": True},
    "per_host": {"type": "raw", "default": False},
    "aggregate": {"type": "raw", "default": True},
}
