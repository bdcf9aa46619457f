"""Role references: ``oci://HOST[:PORT]/NAMESPACE/NAME[:VERSION][@sha256:...]`` and their short forms.

After the last ``/``, ``:`` starts a version, a tag or a version constraint (``redis:^1.2``) and ``@`` a digest.
As Docker reads image names, the first part is the registry when it looks like a host (has a ``.`` or a ``:``,
or is ``localhost``); otherwise the configured registry is meant, and a bare name (``redis``) lives in the
configured namespace. So ``redis:^1.2``, ``team/redis`` and ``oci://registry.example.com:5000/team/redis:1.4.0``
are all references.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

SCHEME = "oci://"
DIGEST = re.compile(r"^sha256:[a-f0-9]{64}$")
# A repository path component, as the OCI distribution spec allows it.
COMPONENT = re.compile(r"^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$")
TAG = re.compile(r"^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$")


class ReferenceSyntaxError(ValueError):
    """A reference that cannot be read; the text says what was expected."""


@dataclass(frozen=True)
class RoleRef:
    """A role in a registry. ``version`` is what followed ``:`` (a tag, a version or a constraint)."""

    registry: str
    repository: str
    version: str | None = None
    digest: str | None = None

    @property
    def name(self) -> str:
        """The role's name: the repository's last component."""
        return self.repository.rsplit("/", 1)[-1]

    @property
    def source(self) -> str:
        """Where the role lives, without version or digest: ``oci://host/namespace/name``."""
        return f"{SCHEME}{self.registry}/{self.repository}"

    def at(self, *, version: str | None = None, digest: str | None = None) -> RoleRef:
        return replace(self, version=version, digest=digest)

    def __str__(self) -> str:
        text = self.source
        if self.version:
            text += f":{self.version}"
        if self.digest:
            text += f"@{self.digest}"
        return text


def looks_like_host(part: str) -> bool:
    return "." in part or ":" in part or part == "localhost"


def parse_reference(text: str, *, registry: str | None = None, namespace: str | None = None) -> RoleRef:
    """Read a reference; ``registry`` and ``namespace`` complete one that names none.

    Raises ``ReferenceSyntaxError`` saying what is wrong and what was expected.
    """
    rest = text.strip()
    rest = rest[len(SCHEME):] if rest.startswith(SCHEME) else rest
    rest, _, digest = rest.partition("@")
    if digest and not DIGEST.match(digest):
        raise ReferenceSyntaxError(f"'{digest}' in '{text}' is not a digest (expected sha256: and 64 hex digits)")
    head, _, last = rest.rpartition("/")
    name, _, version = last.partition(":")
    parts = [*(head.split("/") if head else []), name]
    if len(parts) > 1 and looks_like_host(parts[0]):
        host, parts = parts[0], parts[1:]
    elif registry:
        host = registry
    else:
        raise ReferenceSyntaxError(f"'{text}' names no registry and none is configured (write oci://HOST[:PORT]/... "
                             "or set [galaxy] registry or registry_file)")
    if len(parts) == 1:
        if not namespace:
            raise ReferenceSyntaxError(f"'{text}' names no namespace (expected NAMESPACE/NAME)")
        parts = [namespace, *parts]
    for part in parts:
        if not COMPONENT.match(part):
            raise ReferenceSyntaxError(f"'{part}' in '{text}' is not a valid repository name part "
                                 "(lowercase letters, digits, and . _ - between them)")
    return RoleRef(host, "/".join(parts), version.strip() or None, digest or None)


def check_tag(tag: str) -> str:
    """A tag the registry accepts (the seed schema's ``OCIArtifactReference`` rule)."""
    if not TAG.match(tag):
        raise ReferenceSyntaxError(f"Invalid tag format: '{tag}'")
    return tag
