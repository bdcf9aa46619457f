"""Add or remove a host's keys in an SSH known_hosts file."""

import os
import re

from modules._spec import argument_spec
from modules._sshkeys import KnownHost, hash_host
from modules._textfile import ContentChange, content_diff
from modules._utils import make_directories

DOCUMENTATION = {
    "short_description": "Add or remove a host from the known_hosts file",
    "description": [
        "key is a known_hosts line for the host (its name first, as ssh-keyscan prints it). A line for the host "
        "with the same key type but other key material is replaced; keys of other types stay.",
        "Hashed entries (|1|salt|hash) are matched by computing the hash, as ssh does; with hash_host the line "
        "is written hashed.",
        "The file is written atomically; its directory is created (0700) when missing.",
    ],
    "options": {
        "name": {"description": "The host (or [host]:port) whose keys are managed.", "type": "str",
                 "required": True, "aliases": ["host"]},
        "key": {"description": "The host's known_hosts line; required with state present. With state absent, "
                               "only this key is removed (else every key of the host).", "type": "str"},
        "path": {"description": "The known_hosts file.", "type": "path", "default": "~/.ssh/known_hosts"},
        "hash_host": {"description": "Write the host name hashed.", "type": "bool", "default": False},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
    },
}

EXAMPLES = """
- name: Trust the git server's key
  known_hosts:
    name: git.example.com
    key: "git.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI..."
"""

RETURN = {"hash_host": "hash_host as given", "key": "key as given", "name": "name as given",
          "path": "The file", "state": "present or absent"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"required_if": [["state", "present", ["key"]]]}
SUPPORTS_CHECK_MODE = True


def wanted_line(module, name, key):
    """The known_hosts line for ``key``; it must name the host, and only one."""
    if re.search(r"\S+(\s+)?,(\s+)?", name):
        module.fail("Comma separated list of names is not supported. Please pass a single name to lookup in the "
                    "known_hosts file.")
    lines = [line for line in key.splitlines() if line.strip()]
    parsed = KnownHost.parse(lines[0]) if len(lines) == 1 else None
    if parsed is None:
        module.fail("key: invalid key specified; it must be one known_hosts line: host keytype key [comment]")
    if not parsed.matches(name):
        # Ansible's words, always; ansible-core 2.21 adds the rc of its `ssh-keygen -F`, which exits 1 for a name
        # it does not find (matched here in Python, so that is the rc of every mismatch)
        module.fail("Host parameter does not match hashed host field in supplied key", rc=1)
    return parsed


def new_lines(lines, name, wanted, state, hashed):
    """The file's lines after the task, and whether the wanted key was already there as asked."""
    result, present = [], False
    for line in lines:
        entry = KnownHost.parse(line)
        if entry is None or not entry.matches(name):
            result.append(line)
            continue
        if state == "absent":
            if wanted is not None and entry.blob != wanted.blob:
                result.append(line)
            continue
        if entry.blob == wanted.blob and entry.hashed == hashed and entry.marker == wanted.marker:
            if not present:  # a second copy of the same line goes
                result.append(line)
                present = True
        elif entry.keytype != wanted.keytype or entry.marker:
            # another key type of the host (ssh keeps several), or a CA or revoked key: Ansible replaces only an
            # unmarked key of the same type, and adds the wanted key beside a marked one
            result.append(line)
    if state == "present" and not present:
        entry = KnownHost(hash_host(name) if hashed else wanted.hosts, wanted.keytype, wanted.blob, wanted.marker,
                          wanted.comment)
        result.append(entry.render())
    return result


def run(module):
    params = module.params
    name, path = params["name"], params["path"]
    wanted = wanted_line(module, name, params["key"]) if params["key"] else None
    result = {"name": name, "key": params["key"], "path": path, "hash_host": params["hash_host"],
              "state": params["state"], "changed": False}
    original = None
    if module.lexists(path) and os.path.exists(path):
        with open(path, "rb") as handle:
            original = handle.read()
    lines = (original or b"").decode("utf-8", "replace").splitlines()
    after = new_lines(lines, name, wanted, params["state"], params["hash_host"])
    new = "".join(line + "\n" for line in after).encode("utf-8") if after != lines else original
    # Always there, as in Ansible (before == after when nothing changes), headed by the path alone (/dev/null
    # for a new file).
    diff = content_diff(path, original, new)
    diff.update(before_header=path if original is not None else "/dev/null", after_header=path)
    result["diff"] = diff
    if after == lines:
        return result
    directory = os.path.dirname(os.path.abspath(path))
    if not module.isdir(directory):
        make_directories(module, directory, "0700")
    ContentChange(module, path, original, new).write()
    result["changed"] = True
    return result
