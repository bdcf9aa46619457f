"""Read a file on the host and return its content, base64-encoded."""

import base64
import errno

DOCUMENTATION = {
    "short_description": "Slurps a file from remote nodes",
    "description": [
        "Returns the content of a file on the host, base64-encoded (decode it with the b64decode filter). "
        "It changes nothing.",
        "The whole file is held in memory twice (raw and encoded): for large files use fetch.",
    ],
    "options": {
        "src": {"description": "The file on the host to read.", "type": "path", "required": True,
                "aliases": ["path"]},
    },
}

EXAMPLES = """
- name: Read the host's SSH public key
  slurp:
    src: /etc/ssh/ssh_host_ed25519_key.pub
  register: host_key

- name: Show it
  debug:
    msg: "{{ host_key.content | b64decode }}"
"""

RETURN = {
    "content": "The file's content, base64-encoded",
    "encoding": "Always 'base64'",
    "source": "The file read",
}

ARGUMENT_SPEC = {
    "src": {"type": "path", "required": True, "aliases": ["path"]},
}
SUPPORTS_CHECK_MODE = True

_FAILURES = {
    errno.ENOENT: "File not found: %s",  # ansible-core 2.19's words (2.18 and older wrote them lower-case)
    errno.EACCES: "File is not readable: %s",
    errno.EISDIR: "Source is a directory and must be a file: %s",
}


def run(module):
    source = module.params["src"]
    try:
        with open(source, "rb") as handle:
            data = handle.read()
    except (IOError, OSError) as exc:
        message = _FAILURES.get(exc.errno)
        module.fail(message % source if message else "Unable to slurp file: %s" % exc)
    return {"changed": False, "content": base64.b64encode(data).decode("ascii"), "encoding": "base64",
            "source": source}
