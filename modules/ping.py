"""Try to connect to the host, verify a usable Python, and return ``pong`` on success."""

DOCUMENTATION = {
    "short_description": "Try to connect to host, verify a usable python and return pong on success",
    "description": [
        "A trivial test module: it always returns pong on a successful contact.",
        "It does not make sense in playbooks, but it is useful from the ad-hoc command line.",
    ],
    "options": {
        "data": {"description": "Data to return in the ping return value. If 'crash', the module raises.",
                 "type": "str", "default": "pong"},
    },
}

EXAMPLES = """
# provisioning all -m ping
- name: Check that the hosts answer
  ping:
"""

RETURN = {"ping": "Value provided with the data parameter (pong by default)"}

ARGUMENT_SPEC = {"data": {"type": "str", "default": "pong"}}
SUPPORTS_CHECK_MODE = True


def run(module):
    data = module.params["data"]
    if data == "crash":
        raise Exception("boom")
    return {"changed": False, "ping": data}
