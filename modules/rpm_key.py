"""Import or remove an OpenPGP key in the RPM database (rpm --import / rpm --erase gpg-pubkey-ID)."""

import os
import re

from modules._http import request
from modules._spec import argument_spec
from modules._utils import remove_quietly

DOCUMENTATION = {
    "short_description": "Adds or removes a gpg key from the rpm db",
    "description": [
        "key is a URL, a key file on the host, or (for state absent, or to check) a key id. A key is imported "
        "with rpm --import when its id is not among the gpg-pubkey packages, and removed with rpm --erase "
        "--allmatches gpg-pubkey-ID. fingerprint makes an import fail unless the key file holds those "
        "fingerprints.",
        "It needs rpm and gpg on the host: without rpm (a Debian host) it fails with ansible-core's message, so "
        "a role that branches on the OS family loads and runs everywhere.",
    ],
    "options": {
        "key": {"description": "A URL, a file on the host, or a key id.", "type": "str", "required": True,
                "no_log": False},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
        "fingerprint": {"description": "Fingerprints the key must have.", "type": "list", "elements": "str"},
        "validate_certs": {"description": "Verify the URL's TLS certificate.", "type": "bool", "default": True},
    },
}

EXAMPLES = """
- name: Import the EPEL key
  rpm_key:
    key: https://dl.fedoraproject.org/pub/epel/RPM-GPG-KEY-EPEL-9
    fingerprint: FF8A D134 4597 106E CE81 3B91 8A38 72BF 3228 467C
  when: ansible_facts.os_family == "RedHat"
"""

RETURN = {}  # type: dict

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

GPG_COLONS = ["--no-tty", "--batch", "--with-colons", "--fixed-list-mode"]


class RpmKeys(object):
    def __init__(self, module):
        self.module = module
        self.rpm = module.get_bin_path("rpm", required=True)
        self.gpg = module.get_bin_path("gpg") or module.get_bin_path("gpg2", required=True)

    def run(self, argv, data=None):
        rc, out, err = self.module.run_command(argv, data=data, binary_data=True)
        if rc != 0:
            self.module.fail(err.strip() or out.strip() or "%s failed" % argv[0], rc=rc)
        return out

    def key_id(self, keyfile):
        for line in self.run([self.gpg, *GPG_COLONS, keyfile]).splitlines():
            if line.startswith("pub:"):
                return line.split(":")[4]
        self.module.fail("Unexpected gpg output")

    def fingerprints(self, keyfile):
        out = self.run([self.gpg, *GPG_COLONS, "--import", "--import-options", "show-only", "--dry-run", keyfile])
        found = set(line.split(":")[9] for line in out.splitlines() if line.startswith("fpr:"))
        if not found:
            self.module.fail("Unexpected gpg output")
        return found

    def imported(self, key_id):
        rc, out, _err = self.module.run_command([self.rpm, "-q", "gpg-pubkey", "--qf", "%{description}"])
        if rc != 0:
            return False  # no key at all
        listed = self.run([self.gpg, *GPG_COLONS, "-"], data=out.encode("utf-8"))
        return any(key_id in line.split(":")[4] for line in listed.splitlines() if line.count(":") >= 4)


def normalize(key_id):
    text = key_id.strip().upper()
    return text[2:] if text.startswith("0X") else text


def download(module, url):
    response = request(module.params, url, timeout=30)
    if response.status != 200:
        module.fail("failed to fetch key at %s , error was: %s" % (url, response.msg))
    data = response.read()
    if b"-----BEGIN PGP PUBLIC KEY BLOCK-----" not in data:
        module.fail("Not a public key: %s" % url)
    path = os.path.join(module.tmpdir, "rpm-key-%d.asc" % os.getpid())
    with open(path, "wb") as handle:
        handle.write(data)
    return path


def run(module):
    params = module.params
    keys = RpmKeys(module)
    key, keyfile, downloaded = params["key"], None, False
    if "://" in key:
        keyfile, downloaded = download(module, key), True
    elif re.match("(0x)?[0-9a-f]{8}", key, flags=re.IGNORECASE):
        key_id = key
    elif os.path.isfile(key):
        keyfile = key
    else:
        module.fail("Not a valid key %s" % key)
    try:
        key_id = normalize(keys.key_id(keyfile) if keyfile else key_id)
        present = keys.imported(key_id)
        if params["state"] == "absent":
            if present and not module.check_mode:
                keys.run([keys.rpm, "--erase", "--allmatches", "gpg-pubkey-%s" % key_id[-8:].lower()])
            return {"changed": present}
        if present:
            return {"changed": False}
        if not keyfile:
            module.fail("When importing a key, a valid file must be given")
        wanted = set(item.replace(" ", "").upper() for item in params["fingerprint"] or [])
        if wanted:
            held = keys.fingerprints(keyfile)
            if not wanted.issubset(held):
                module.fail("The specified fingerprint, '%s', does not match any key fingerprints in '%s'"
                            % (wanted, held))
        if not module.check_mode:
            keys.run([keys.rpm, "--import", keyfile])
        return {"changed": True}
    finally:
        if downloaded:
            remove_quietly(keyfile)
