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
- name: Restart networking, then wait until the host answers again
  shell: nohup sh -c 'sleep 2 && service networking restart' >/dev/null 2>&1 &
- wait_for_connection:
    delay: 5
    timeout: 300

# In a play with gather_facts: false, before the first task that needs the host (new servers)
- name: Wait for the new server
  wait_for_connection:
    sleep: 5
- name: Gather facts once it answers
  setup:
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
