"""Wait until the host can be reached and runs modules again (after a reboot, or while it is being created).

The work happens on the controller, in ``runner/actions/wait_for_connection.py``: it opens fresh connections
to the host and runs ``ping`` through a new agent until one answers; this file holds the module's description.
"""

DOCUMENTATION = {
    "short_description": "Waits until remote system is reachable/usable",
    "description": [
        "Waits for a total of timeout seconds. Each attempt opens a new connection to the host (giving up on it "
        "after connect_timeout seconds), starts the agent and runs ping; attempts are sleep seconds apart.",
        "On success the task's host connection is renewed, so later tasks do not use one that died (a reboot).",
        "Skipped in check mode, as in Ansible.",
    ],
    "options": {
        "connect_timeout": {"description": "Seconds one attempt may take to connect and start the agent.",
                            "type": "int", "default": 5},
        "delay": {"description": "Seconds to wait before the first attempt.", "type": "int", "default": 0},
        "sleep": {"description": "Seconds between two attempts.", "type": "int", "default": 1},
        "timeout": {"description": "Seconds to wait at most.", "type": "int", "default": 600},
    },
}

EXAMPLES = """
- name: Reboot, then wait until the host is back
  shell: sleep 2 && reboot
  async: 1
  poll: 0
- wait_for_connection:
    delay: 10
    timeout: 300

- name: Wait for newly created servers before gathering facts
  hosts: new_servers
  gather_facts: false
  tasks:
    - wait_for_connection:
    - setup:
"""

RETURN = {"elapsed": "Seconds it took until the host answered"}

ARGUMENT_SPEC = {
    "connect_timeout": {"type": "int", "default": 5},
    "delay": {"type": "int", "default": 0},
    "sleep": {"type": "int", "default": 1},
    "timeout": {"type": "int", "default": 600},
}
SUPPORTS_CHECK_MODE = True
ACTION = "wait_for_connection"
