"""Create a temporary file or directory with a unique name."""

import binascii
import os
import tempfile

from modules._utils import path_info

DOCUMENTATION = {
    "short_description": "Creates temporary files and directories",
    "description": [
        "Creates a file or directory with a new unique name (mode 0600 or 0700), and returns its path. Every run "
        "creates a new one, so it always reports changed; remove it with the file module when done.",
        "In check mode nothing is created: the result names a path that is free now, and later tasks of the same "
        "check run see it as created (Ansible's tempfile skips in check mode instead).",
    ],
    "options": {
        "state": {"description": "Whether to create a file or a directory.", "type": "str", "default": "file",
                  "choices": ["file", "directory"]},
        "path": {"description": "Directory to create it in; the system's temp directory ($TMPDIR, /tmp) when "
                                "omitted.", "type": "path"},
        "prefix": {"description": "Start of the name.", "type": "str", "default": "ansible."},
        "suffix": {"description": "End of the name.", "type": "str", "default": ""},
    },
}

EXAMPLES = """
- name: A scratch directory for the build
  tempfile:
    state: directory
    suffix: build
  register: build_dir

- name: Remove it afterwards
  file:
    path: "{{ build_dir.path }}"
    state: absent
"""

RETURN = {
    "path": "The path created",
    "state": "file or directory",
    "mode": "Permissions ('0600' or '0700')",
    "owner": "Owner name",
    "group": "Group name",
    "uid": "Owner id",
    "gid": "Group id",
    "size": "Size in bytes",
}

ARGUMENT_SPEC = {
    "state": {"type": "str", "default": "file", "choices": ["file", "directory"]},
    "path": {"type": "path"},
    "prefix": {"type": "str", "default": "ansible."},
    "suffix": {"type": "str", "default": ""},
}
SUPPORTS_CHECK_MODE = True


def _free_name(directory, prefix, suffix):
    """A name that no file in ``directory`` has now (nor one this check run predicted)."""
    while True:
        candidate = os.path.join(directory, prefix + binascii.hexlify(os.urandom(4)).decode("ascii") + suffix)
        if not os.path.lexists(candidate):
            return candidate


def run(module):
    params = module.params
    for part in ("prefix", "suffix"):
        # A name component only: '../x' would put the file outside path (Ansible's words).
        if params[part] and params[part] != os.path.basename(params[part]):
            module.fail("%s must be a valid file name component, got %r" % (part, params[part]))
    directory = params["path"] or tempfile.gettempdir()
    if not module.isdir(directory):
        module.fail("Directory %s does not exist or is not a directory" % directory, path=directory)
    state = params["state"]
    if module.check_mode:
        path = _free_name(directory, params["prefix"], params["suffix"])
        module.predict(path, state)
        return {"changed": True, "path": path, "state": state}
    try:
        if state == "file":
            handle, path = tempfile.mkstemp(prefix=params["prefix"], suffix=params["suffix"], dir=directory)
            os.close(handle)
        else:
            path = tempfile.mkdtemp(prefix=params["prefix"], suffix=params["suffix"], dir=directory)
    except (IOError, OSError) as exc:
        module.fail("Failed to create a temporary %s in %s: %s" % (state, directory, exc.strerror or exc))
    result = {"changed": True, "path": path}
    result.update(path_info(path))
    return result
