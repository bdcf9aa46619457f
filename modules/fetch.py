"""Fetch a file from the host to the controller (the work is the controller action ``runner/actions/fetch.py``)."""

DOCUMENTATION = {
    "short_description": "Fetch files from remote nodes",
    "description": [
        "Copies a file from the host to the controller, into dest/<inventory_hostname>/<src path>, or with flat "
        "to dest itself. The file travels over the host's existing connection.",
        "Compared by checksum first: a file that the controller already holds unchanged is not transferred "
        "again. Skipped in check mode, as in Ansible.",
        "Only files: a directory fails, as in Ansible.",
    ],
    "options": {
        "src": {"description": "The file on the host.", "type": "str", "required": True},
        "dest": {"description": "A directory on the controller (relative to the playbook's directory); with "
                                "flat, the file's path (or a directory ending in '/').", "type": "str",
                 "required": True},
        "flat": {"description": "Write to dest itself instead of dest/<host>/<src path>.", "type": "bool",
                 "default": False},
        "fail_on_missing": {"description": "Fail when src does not exist (or is a directory); false only "
                                           "reports it.", "type": "bool", "default": True},
        "validate_checksum": {"description": "Check that what arrived has the checksum the host reported.",
                              "type": "bool", "default": True, "aliases": ["validate_md5"]},
    },
}

EXAMPLES = """
- name: Collect each host's sshd configuration under fetched/<host>/etc/ssh/
  fetch:
    src: /etc/ssh/sshd_config
    dest: fetched

- name: The CA certificate of the first server, as one file
  fetch:
    src: /etc/pki/ca.crt
    dest: files/ca.crt
    flat: true
"""

RETURN = {
    "file": "The file on the host",
    "dest": "The file on the controller",
    "checksum": "SHA1 of the file on the controller",
    "md5sum": "MD5 of the file on the controller",
    "remote_checksum": "SHA1 the host reported",
    "remote_md5sum": "Always null (kept for compatibility)",
}

ARGUMENT_SPEC = {
    "src": {"type": "str", "required": True},
    "dest": {"type": "str", "required": True},
    "flat": {"type": "bool", "default": False},
    "fail_on_missing": {"type": "bool", "default": True},
    "validate_checksum": {"type": "bool", "default": True, "aliases": ["validate_md5"]},
}
SUPPORTS_CHECK_MODE = True
ACTION = "fetch"


def run(module):
    module.fail("fetch writes on the controller: run it as a task (its action reads the file over the connection)")
