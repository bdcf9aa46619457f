"""Add or remove SSH public keys in a user's authorized_keys file."""

import os
import pwd

from modules._spec import argument_spec
from modules._sshkeys import AuthorizedKey
from modules._textfile import ContentChange, content_diff
from modules._utils import make_directories

DOCUMENTATION = {
    "short_description": "Adds or removes an SSH authorized key",
    "description": [
        "Keys are matched by type and key material; a key already there with other options or another comment "
        "is rewritten in place, so a second run changes nothing.",
        "The file is written atomically, owned by the user with mode 0600; manage_dir creates ~/.ssh (0700).",
        "Keys are given as text (one or several lines); fetching them from a URL is not supported.",
    ],
    "options": {
        "user": {"description": "The user whose authorized_keys file is managed.", "type": "str",
                 "required": True},
        "key": {"description": "The public key(s), one per line, as in an authorized_keys file.", "type": "str",
                "required": True},
        "path": {"description": "The authorized_keys file (default ~user/.ssh/authorized_keys).", "type": "path"},
        "manage_dir": {"description": "Create the file's directory (owned by the user, 0700) when missing.",
                       "type": "bool", "default": True},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "key_options": {"description": "Options for every key (e.g. 'no-port-forwarding,from=\"10.0.1.1\"').",
                        "type": "str"},
        "exclusive": {"description": "Remove every other key from the file.", "type": "bool", "default": False},
        "comment": {"description": "Comment for every key, instead of the key's own.", "type": "str"},
        "follow": {"description": "Follow a symlinked path and write its target.", "type": "bool",
                   "default": False},
        "validate_certs": {"description": "Accepted for compatibility (keys are never fetched).", "type": "bool",
                           "default": True},
    },
}

EXAMPLES = """
- name: Let the deploy key in
  authorized_key:
    user: deploy
    key: "{{ lookup('file', 'files/deploy.pub') }}"

- name: Only these keys, and no port forwarding
  authorized_key:
    user: app
    key: |
      ssh-ed25519 AAAAC3Nza... ops
      ssh-ed25519 AAAAC3Nzb... ci
    key_options: no-port-forwarding
    exclusive: true
"""

RETURN = {"user": "The user", "key": "The key(s) as given", "keyfile": "The file written", "path": "path as given",
          "key_options": "key_options as given", "exclusive": "exclusive as given", "state": "present or absent",
          "manage_dir": "manage_dir as given"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True


def wanted_keys(module):
    """The keys asked for, with key_options and comment applied; a line that is no key fails the module."""
    params = module.params
    keys = []
    for line in params["key"].splitlines():
        if not line.strip() or line.strip().startswith("#"):
            continue
        key = AuthorizedKey.parse(line)
        if key is None:
            module.fail("invalid key specified: %s" % line.strip())
        if params["key_options"] is not None:
            key.options = params["key_options"] or None
        if params["comment"] is not None:
            key.comment = params["comment"] or None
        keys.append(key)
    if not keys:
        module.fail("key: no key given")
    return keys


def new_lines(lines, keys, state, exclusive):
    """The file's lines after the task: keys replaced in place or appended, or removed."""
    wanted = dict((key.identity, key) for key in keys)
    result, seen = [], set()
    for line in lines:
        existing = AuthorizedKey.parse(line)
        if existing is None:
            result.append(line)
        elif existing.identity in wanted:
            if state == "present" and existing.identity not in seen:
                result.append(wanted[existing.identity].render())
                seen.add(existing.identity)
        elif not exclusive:
            result.append(line)
    if state == "present":
        result.extend(key.render() for key in keys if key.identity not in seen)
    return result


def run(module):
    params = module.params
    try:
        account = pwd.getpwnam(params["user"])
    except KeyError:
        module.fail("Failed to lookup user %s: no such user" % params["user"])
    path = params["path"] or os.path.join(account.pw_dir, ".ssh", "authorized_keys")
    if params["follow"]:
        path = os.path.realpath(path)
    keys = wanted_keys(module)
    result = {"user": params["user"], "key": params["key"], "key_options": params["key_options"], "keyfile": path,
              "path": params["path"], "state": params["state"], "exclusive": params["exclusive"],
              "manage_dir": params["manage_dir"], "changed": False}
    original = None
    if module.lexists(path) and os.path.exists(path):
        with open(path, "rb") as handle:
            original = handle.read()
    lines = (original or b"").decode("utf-8", "replace").splitlines()
    after = new_lines(lines, keys, params["state"], params["exclusive"])
    new = "".join(line + "\n" for line in after).encode("utf-8")
    if original is None and not after:
        return result  # no file, and none needed
    directory = os.path.dirname(path)
    if not module.isdir(directory):
        if not params["manage_dir"]:
            module.fail("%s does not exist and manage_dir is false" % directory)
        make_directories(module, directory, "0700", account.pw_uid, account.pw_gid)
    change = ContentChange(module, path, original, new)
    if change.write():
        result.update(changed=True, diff=content_diff(path, original, new))
        if not module.check_mode:
            # sshd ignores a key file that others may write: the user's own, 0600
            module.set_file_attributes(path, "0600", account.pw_uid, account.pw_gid)
    return result
