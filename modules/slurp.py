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
        "armor": {"description": "Base64-encode the content (the default). Without it the content is returned as "
                                 "text (bytes that are not UTF-8 kept as ansible-core keeps them), which suits text "
                                 "files read for their words.", "type": "bool", "default": True},
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
    "encoding": "'base64', or 'utf-8' with armor false",
    "source": "The file read",
}

ARGUMENT_SPEC = {
    "src": {"type": "path", "required": True, "aliases": ["path"]},
    "armor": {"type": "bool", "default": True},
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
    if not module.params["armor"]:
        # as ansible-core 2.21 sends a module's bytes: text, undecodable bytes as lone surrogates
        return {"changed": False, "content": data.decode("utf-8", "surrogateescape"), "encoding": "utf-8",
                "source": source}
    return {"changed": False, "content": base64.b64encode(data).decode("ascii"), "encoding": "base64",
            "source": source}
