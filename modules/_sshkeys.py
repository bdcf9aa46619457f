"""Lines of OpenSSH key files (authorized_keys, known_hosts): splitting them as sshd does, and hashed host names.

A key is identified by its type and base64 blob; options and comments around it can change without it being
another key.
"""

import base64
import hashlib
import hmac
import os
import re

_KEY_TYPE = re.compile(r"^(ssh-(rsa|dss|ed25519|ed448)|ecdsa-sha2-nistp\d+|sk-[\w.-]+@openssh\.com)"
                       r"(-cert-v01@openssh\.com)?$")
HASH_MAGIC = "|1|"


def is_key_type(word):
    return bool(_KEY_TYPE.match(word))


def split_first(text):
    """(first field, rest): the first whitespace-separated field, where double quotes protect whitespace."""
    text = text.lstrip()
    quoted = False
    for index, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif ch in " \t" and not quoted:
            return text[:index], text[index:].strip()
    return text, ""


class AuthorizedKey(object):
    """One key line of an authorized_keys file: ``[options] type blob [comment]``."""

    def __init__(self, keytype, blob, options=None, comment=None):
        self.keytype = keytype
        self.blob = blob
        self.options = options or None
        self.comment = comment or None

    @classmethod
    def parse(cls, line):
        """The key on ``line``, or None for a blank line, a comment or something that is not a key."""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        first, rest = split_first(text)
        options = None
        if not is_key_type(first):
            options, rest = first, rest
            first, rest = split_first(rest)
            if not is_key_type(first):
                return None
        blob, comment = split_first(rest)
        if not blob:
            return None
        return cls(first, blob, options, comment)

    @property
    def identity(self):
        return (self.keytype, self.blob)

    def render(self):
        parts = ([self.options] if self.options else []) + [self.keytype, self.blob]
        return " ".join(parts + ([self.comment] if self.comment else []))


# -- known_hosts ----------------------------------------------------------------------------------------------
class KnownHost(object):
    """One line of a known_hosts file: ``[@marker] hosts type blob [comment]``."""

    def __init__(self, hosts, keytype, blob, marker=None, comment=None):
        self.hosts = hosts
        self.keytype = keytype
        self.blob = blob
        self.marker = marker
        self.comment = comment

    @classmethod
    def parse(cls, line):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            return None
        marker = fields.pop(0) if fields[0].startswith("@") else None
        if len(fields) < 3 or not is_key_type(fields[1]):
            return None
        return cls(fields[0], fields[1], fields[2], marker, " ".join(fields[3:]) or None)

    def names(self):
        return self.hosts.split(",")

    def matches(self, name):
        return any(host_matches(entry, name) for entry in self.names())

    @property
    def hashed(self):
        return self.hosts.startswith(HASH_MAGIC)

    def render(self):
        parts = ([self.marker] if self.marker else []) + [self.hosts, self.keytype, self.blob]
        return " ".join(parts + ([self.comment] if self.comment else []))


def host_matches(entry, name):
    """Whether a known_hosts host entry (a name, or ``|1|salt|hash``) is ``name``."""
    if not entry.startswith(HASH_MAGIC):
        return entry.lower() == name.lower()
    try:
        salt, digest = entry[len(HASH_MAGIC):].split("|", 1)
        expected = base64.b64decode(digest)
        computed = hmac.new(base64.b64decode(salt), name.lower().encode(), hashlib.sha1).digest()
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(expected, computed)


def hash_host(name, salt=None):
    """``|1|salt|hash`` for ``name``, as ssh-keygen -H writes it."""
    salt = salt if salt is not None else os.urandom(20)
    digest = hmac.new(salt, name.lower().encode(), hashlib.sha1).digest()
    return "%s%s|%s" % (HASH_MAGIC, base64.b64encode(salt).decode(), base64.b64encode(digest).decode())
