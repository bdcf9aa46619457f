"""Write or remove one apt source in the deb822 format: /etc/apt/sources.list.d/NAME.sources."""

import hashlib
import os
import re

from modules._aptsources import SOURCES_DIR
from modules._http import request
from modules._spec import argument_spec
from modules._textfile import finish, read_content
from modules._utils import file_checksum, make_directories

DOCUMENTATION = {
    "short_description": "Add and remove deb822 formatted repositories",
    "description": [
        "Writes /etc/apt/sources.list.d/SLUG.sources from the options given, SLUG being name in lower case with "
        "spaces and _ as - and anything but letters, digits and - dropped. Fields come in the order of the "
        "options' names, named as ansible-core names them (signed_by: Signed-By, uris: URIs, name: "
        "X-Repolib-Name), so a file either runner wrote is left as it is by the other.",
        "signed_by is a keyring file on the host (used as it is), a URL (downloaded to /etc/apt/keyrings/SLUG.asc "
        "or .gpg, as the key is armored or not) or the key itself, embedded in the file.",
        "state absent removes the .sources file and the keyring this module downloaded for it.",
        "The package lists are not updated: follow it with apt update_cache where needed.",
    ],
    "options": {
        "name": {"description": "Name of the repository; also gives the file its name.", "type": "str",
                 "required": True},
        "types": {"description": "deb and/or deb-src.", "type": "list", "elements": "str", "default": ["deb"],
                  "choices": ["deb", "deb-src"]},
        "uris": {"description": "Where the repository is.", "type": "list", "elements": "str"},
        "suites": {"description": "Suites (a path ending in / for a flat repository).", "type": "list",
                   "elements": "str"},
        "components": {"description": "Components.", "type": "list", "elements": "str"},
        "signed_by": {"description": "A keyring path, a URL to download it from, or the key itself.",
                      "type": "str"},
        "architectures": {"description": "Architectures to fetch.", "type": "list", "elements": "str"},
        "languages": {"description": "Translations to fetch.", "type": "list", "elements": "str"},
        "targets": {"description": "Download targets.", "type": "list", "elements": "str"},
        "enabled": {"description": "Whether apt uses the source.", "type": "bool"},
        "trusted": {"description": "Trust the repository even without a valid signature.", "type": "bool"},
        "allow_insecure": {"description": "Allow an unsigned repository.", "type": "bool"},
        "allow_weak": {"description": "Allow weak signatures.", "type": "bool"},
        "allow_downgrade_to_insecure": {"description": "Allow a signed repository to become unsigned.",
                                        "type": "bool"},
        "by_hash": {"description": "Fetch indexes by hash.", "type": "bool"},
        "check_date": {"description": "Check the Release file's date.", "type": "bool"},
        "check_valid_until": {"description": "Check the Release file's Valid-Until.", "type": "bool"},
        "date_max_future": {"description": "Seconds a Release file may be dated in the future.", "type": "int"},
        "inrelease_path": {"description": "Path of the InRelease file.", "type": "str"},
        "pdiffs": {"description": "Fetch index diffs.", "type": "bool"},
        "mode": {"description": "Permissions of the .sources file.", "type": "raw", "default": "0644"},
        "state": {"description": "present or absent.", "type": "str", "default": "present",
                  "choices": ["absent", "present"]},
    },
}

EXAMPLES = """
- name: Add the example repository, its key downloaded beside it
  deb822_repository:
    name: example
    types: [deb]
    uris: http://example.com/debian
    suites: [bookworm]
    components: [main]
    signed_by: https://example.com/debian/key.asc
"""

RETURN = {
    "repo": "The .sources file's content",
    "dest": "The .sources file's path",
    "key_filename": "The keyring downloaded for signed_by, when there is one",
    "diff": "The .sources file before and after",
}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True

KEYRINGS_DIR = "/etc/apt/keyrings"
FIELD_NAMES = {"name": "X-Repolib-Name", "uris": "URIs"}
NOT_FIELDS = ("mode", "state")


def slug(name):
    return re.sub(r"[^a-z0-9-]+", "", re.sub(r"[_\s]+", "-", name.lower()))


def field_name(option):
    return FIELD_NAMES.get(option) or option.replace("_", "-").title()


def field_value(value):
    """A value as deb822 writes it: yes/no, words joined by spaces, continuation lines indented ('.' if empty)."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(value)
    text = str(value)
    if "\n" in text:
        return "\n" + "\n".join("    " + (line.strip() or ".") for line in text.strip().splitlines())
    return text


def render(fields):
    lines = []
    for name, value in fields:
        lines.append("%s:%s\n" % (name, value) if value.startswith("\n") else "%s: %s\n" % (name, value))
    return "".join(lines)


def keyring_path(base, data):
    armored = b"-----BEGIN PGP PUBLIC KEY BLOCK-----" in data
    return os.path.join(KEYRINGS_DIR, "%s.%s" % (base, "asc" if armored else "gpg"))


def download_key(module, url, base):
    """The keyring at ``url`` kept as /etc/apt/keyrings/BASE.asc|gpg; (its path, whether it changed)."""
    response = request({}, url, timeout=30)
    data = response.read() if response.status == 200 else b""
    if response.status != 200:
        module.fail("Could not fetch signed_by key: %s" % response.msg)
    if not data:
        return url, False
    path = keyring_path(base, data)
    changed = make_directories(module, KEYRINGS_DIR, mode="0755", owner="root", group="root")
    if file_checksum(path, "sha256") != hashlib.sha256(data).hexdigest():
        changed = True
        if not module.check_mode:
            module.atomic_write(path, data)
    if not module.check_mode:
        changed = module.set_file_attributes(path, "0644") or changed
    return path, changed


def signed_by_value(module, value, base):
    """signed_by as written in the file, the keyring downloaded for it (or None), and whether that changed."""
    if os.path.isfile(value):
        return value, None, False
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", value):
        path, changed = download_key(module, value, base)
        return path, path, changed
    return value, None, False


def remove(module, sources, base):
    changed = False
    for path in [sources] + [os.path.join(KEYRINGS_DIR, "%s.%s" % (base, ext)) for ext in ("asc", "gpg")]:
        if os.path.lexists(path):
            changed = True
            if not module.check_mode:
                os.unlink(path)
    return {"changed": changed, "repo": None, "dest": sources, "key_filename": None}


def run(module):
    params = module.params
    base = slug(params["name"])
    sources = os.path.join(SOURCES_DIR, "%s.sources" % base)
    if params["state"] == "absent":
        return remove(module, sources, base)
    fields, key_filename, key_changed = [], None, False
    for option in sorted(params):
        value = params[option]
        if value is None or option in NOT_FIELDS or option.startswith("_"):
            continue
        if option == "signed_by":
            value, key_filename, key_changed = signed_by_value(module, value, base)
        fields.append((field_name(option), field_value(value)))
    repo = render(fields)
    result = finish(module, sources, read_content(module, sources), repo.encode("utf-8"), "")
    result.pop("msg", None)
    result.update(changed=result["changed"] or key_changed, repo=repo, dest=sources, key_filename=key_filename)
    return result
