"""Run a command over a plain exec channel: no Python needed on the host (the controller does the work).

Use it to bootstrap a host without Python (``raw: apt-get install -y python3``) or for devices that have none.
The work happens in the controller action ``runner/actions/raw.py``; this file holds the module's description.
"""

DOCUMENTATION = {
    "short_description": "Executes a low-down and dirty command",
    "description": [
        "Runs the command through the login shell of the remote user on a plain exec channel, without the agent, "
        "so it works where no Python is installed.",
        "It always reports changed; in check mode it is skipped. The environment keyword does not apply to it.",
    ],
    "options": {
        "free_form": {"description": "The command to run.", "type": "str", "required": True},
        "executable": {"description": "Run the command through this shell (its -c option) instead of the "
                                      "login shell.", "type": "str"},
    },
}

EXAMPLES = """
- name: Bootstrap Python on a fresh host
  raw: test -e /usr/bin/python3 || (apt-get update && apt-get install -y python3)
  become: true
"""

RETURN = {
    "rc": "The command's exit status",
    "stdout": "Its standard output, as sent",
    "stdout_lines": "stdout split into lines",
    "stderr": "Its standard error",
    "stderr_lines": "stderr split into lines",
}

ARGUMENT_SPEC = {
    "_raw_params": {"type": "str", "required": True},
    "executable": {"type": "str"},
}
FREE_FORM = "_raw_params"
SUPPORTS_CHECK_MODE = True
ACTION = "raw"
