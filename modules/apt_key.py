"""Add and remove OpenPGP keys in apt's keyrings (what apt-key add/del did), with gpg alone."""

import glob
import os
import re

from modules._http import request
from modules._spec import argument_spec
from modules._utils import error_text, remove_quietly

DOCUMENTATION = {
    "short_description": "Add or remove an apt key",
    "description": [
        "Adds a key to an apt keyring, or removes it. The key comes from data, a file on the host, a url or a "
        "keyserver (with id). Without keyring a key is added to /etc/apt/trusted.gpg, and looked for (and "
        "removed) in it and in every keyring of /etc/apt/trusted.gpg.d, as apt-key did.",
        "gpg does the work, in a private home directory that is removed afterwards; apt-key is not needed. A "
        "keyring is rewritten atomically: binary, or ASCII-armored when its name ends in .asc. A keyring left "
        "without keys is removed.",
        "id is compared with the end of each key's fingerprint (8, 16 or 40 hexadecimal digits, 0x allowed); "
        "without id the fingerprints of the key material given decide.",
    ],
    "options": {
        "id": {"description": "The key's id or fingerprint; required with keyserver and with state absent.",
               "type": "str"},
        "data": {"description": "The key itself (ASCII-armored or binary text).", "type": "str"},
        "file": {"description": "A key file on the host.", "type": "path"},
        "url": {"description": "Where to download the key from.", "type": "str"},
        "keyserver": {"description": "A keyserver to receive the key id from.", "type": "str"},
        "keyring": {"description": "The keyring file (e.g. /etc/apt/trusted.gpg.d/example.gpg).", "type": "path"},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "validate_certs": {"description": "Verify the url's TLS certificate.", "type": "bool", "default": True},
    },
}

EXAMPLES = """
- name: Add the example repository's key to a keyring of its own
  apt_key:
    url: https://example.com/apt/key.asc
    keyring: /etc/apt/trusted.gpg.d/example.gpg

- name: Remove a key from every keyring apt reads
  apt_key:
    id: 9FED2BCBDCD29CDF762678CBAED4B06F473041FA
    state: absent
"""

RETURN = {
    "before": "Fingerprints in the keyrings before",
    "after": "Fingerprints in the keyrings after",
    "fp": "The fingerprint of the key (or the id as given)",
    "id": "The id as given",
    "key_id": "The long (16 digit) id",
    "short_id": "The short (8 digit) id",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SPEC_RULES = {"mutually_exclusive": [["data", "file", "keyserver", "url"]]}
SUPPORTS_CHECK_MODE = True

DEFAULT_KEYRING = "/etc/apt/trusted.gpg"
KEYRING_DIR = "/etc/apt/trusted.gpg.d"
NOT_DONE = "apt-key did not return an error, but %s (check that the id is correct and *not* a subkey)"


def normalize_id(key_id, module):
    text = key_id.strip().upper()
    if text.startswith("0X"):
        text = text[2:]
    if not re.match(r"^[0-9A-F]+$", text) or len(text) not in (8, 16, 40):
        module.fail("Invalid key_id", id=key_id)
    return text


class Gpg(object):
    """gpg in a private home directory: nothing it does touches root's own keys."""

    def __init__(self, module):
        self.module = module
        self.binary = module.get_bin_path("gpg", required=True)
        self.home = os.path.join(module.tmpdir, "gnupg-%d" % os.getpid())
        remove_quietly(self.home)
        os.mkdir(self.home, 0o700)

    def run(self, args, data=None, check=True):
        command = [self.binary, "--homedir", self.home, "--batch", "--no-tty", "--quiet", *args]
        rc, out, err = self.module.run_command(command, data=data, binary_data=True,
                                               environ_update={"LANG": "C", "LC_ALL": "C"})
        if check and rc != 0:
            self.module.fail("gpg %s failed: %s" % (args[0], err.strip() or out.strip()), rc=rc, cmd=command,
                             stdout=out, stderr=err)
        return rc, out, err

    def fingerprints(self, material, what):
        """Fingerprints of the primary keys in ``material`` (bytes), in order."""
        _rc, out, _err = self.run(["--with-colons", "--show-keys"], data=material, check=False)
        found, primary = [], False
        for line in out.splitlines():
            fields = line.split(":")
            if fields[0] in ("pub", "sub"):
                primary = fields[0] == "pub"
            elif fields[0] == "fpr" and primary:
                found.append(fields[9])
                primary = False
        if material.strip() and not found:
            self.module.fail("Unable to extract key from '%s'" % what)
        return found

    def keyring_bytes(self, materials, keep, armor):
        """One keyring holding the keys ``keep`` from ``materials`` (bytes each)."""
        for material in materials:
            if material.strip():
                self.run(["--import"], data=material, check=False)
        if not keep:
            return b""
        # Into a file: a binary keyring would not survive being read as text.
        exported = os.path.join(self.home, "export")
        remove_quietly(exported)
        self.run((["--armor"] if armor else []) + ["--output", exported, "--export"] + keep)
        with open(exported, "rb") as handle:
            return handle.read()

    def close(self):
        remove_quietly(self.home)


def read_keyring(path):
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        return None


def keyrings(params):
    if params["keyring"]:
        return [params["keyring"]]
    found = glob.glob(os.path.join(KEYRING_DIR, "*.gpg")) + glob.glob(os.path.join(KEYRING_DIR, "*.asc"))
    return [DEFAULT_KEYRING, *sorted(found)]


def fetch_material(module, gpg, params, key_id):
    """The key material asked for: data, a host file, a download, or a keyserver's answer."""
    if params["data"] is not None:
        return params["data"].encode("utf-8", "surrogateescape")
    if params["file"]:
        try:
            with open(params["file"], "rb") as handle:
                return handle.read()
        except (IOError, OSError) as exc:
            module.fail("Unable to read the key file %s: %s" % (params["file"], error_text(exc)))
    if params["url"]:
        response = request(params, params["url"], timeout=30)
        if response.status != 200:
            module.fail("Failed to download key at %s: %s" % (params["url"], response.msg))
        return response.read()
    if params["keyserver"]:
        gpg.run(["--keyserver", params["keyserver"], "--recv-keys", key_id])
        _rc, out, _err = gpg.run(["--armor", "--export", key_id])
        return out.encode("utf-8")
    return b""


def matches(fingerprint, key_id):
    return fingerprint.upper().endswith(key_id)


def run(module):
    params = module.params
    key_id = normalize_id(params["id"], module) if params["id"] else None
    if params["keyserver"] and not key_id:
        module.fail("Missing key_id, required with keyserver.")
    if params["state"] == "absent" and not key_id:
        module.fail("key is required to remove a key")
    gpg = Gpg(module)
    try:
        return converge(module, gpg, params, key_id)
    finally:
        gpg.close()


def converge(module, gpg, params, key_id):
    contents = dict((path, read_keyring(path)) for path in keyrings(params))
    present = dict((path, gpg.fingerprints(content, path)) for path, content in contents.items() if content)
    before = [fpr for fprs in present.values() for fpr in fprs]
    result = {"changed": False, "before": before, "after": before, "id": params["id"]}
    if key_id:
        result.update(fp=key_id, key_id=key_id[-16:], short_id=key_id[-8:])
    if params["state"] == "present":
        if key_id and any(matches(fpr, key_id) for fpr in before):
            return result
        material = fetch_material(module, gpg, params, key_id)
        if not material.strip():
            module.fail("No key to add: give data, file, url or keyserver")
        offered = gpg.fingerprints(material, "inline data" if params["data"] is not None else
                                   params["file"] or params["url"] or params["keyserver"])
        wanted = [fpr for fpr in offered if not key_id or matches(fpr, key_id)]
        if not wanted:
            module.fail(NOT_DONE % "failed to add the key", **result)
        if not key_id:
            result.update(fp=wanted[0], key_id=wanted[0][-16:], short_id=wanted[0][-8:])
        if all(fpr in before for fpr in wanted):
            return result
        target = params["keyring"] or DEFAULT_KEYRING
        keep = present.get(target, []) + [fpr for fpr in wanted if fpr not in present.get(target, [])]
        changes = {target: ([contents.get(target) or b"", material], keep)}
    else:
        changes = {}
        for path, fprs in present.items():
            keep = [fpr for fpr in fprs if not matches(fpr, key_id)]
            if keep != fprs:
                changes[path] = ([contents[path]], keep)
        if not changes:
            return result
    after = [fpr for path, fprs in present.items() if path not in changes for fpr in fprs]
    for path, (materials, keep) in changes.items():
        after += keep
        if not module.check_mode:
            write_keyring(module, gpg, path, materials, keep)
    result.update(changed=True, after=after)
    return result


def write_keyring(module, gpg, path, materials, keep):
    data = gpg.keyring_bytes(materials, keep, armor=path.endswith(".asc"))
    if not data:
        remove_quietly(path)
        return
    existed = os.path.exists(path)
    module.atomic_write(path, data)
    if not existed:
        module.set_file_attributes(path, "0644")
