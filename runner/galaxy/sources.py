"""Sources Ansible users name in ``requirements.yml`` besides registries: git repositories and tarballs.

- git: ``git+https://host/repo``, ``git+file:///path``, ``git@host:repo``, or any URL with ``scm: git``; a URL
  ending in ``.git`` is a git repository too. ``version`` is a branch, a tag or a commit (default: the remote's
  HEAD). Locked by the commit it resolved to.
- tarball: an ``http(s)://`` or ``file://`` URL, or a local ``.tar.gz``/``.tgz`` path. Locked by its sha256.

A ``SourceRef`` says where; ``commit`` and ``digest`` pin it once resolved or locked.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from urllib.parse import urlsplit

from runner.galaxy.reference import SCHEME

GIT = "git"
TARBALL = "tarball"
TARBALL_SUFFIXES = (".tar.gz", ".tgz")
DOWNLOAD_SCHEMES = ("http", "https", "file")
COMMIT = re.compile(r"^[0-9a-f]{40}$")


@dataclass(frozen=True)
class SourceRef:
    """A role or collection in a git repository or a tarball. ``location`` is the URL (``git+`` removed) or, for
    a local tarball, the absolute path; ``version`` the git branch, tag or commit asked for."""

    kind: str
    location: str
    version: str | None = None
    commit: str | None = None
    digest: str | None = None

    @property
    def source(self) -> str:
        """Where it lives, as the lock file records it (git URLs keep their ``git+`` so they read back as git)."""
        if self.kind == GIT and not self.location.startswith("git@"):
            return f"git+{self.location}"
        return self.location

    @property
    def name(self) -> str:
        """The default name: the last part of the URL or path, without ``.git`` or an archive suffix."""
        tail = re.split(r"[/:]", self.location.rstrip("/"))[-1]
        for suffix in (".git", *TARBALL_SUFFIXES, ".tar"):
            tail = tail.removesuffix(suffix)
        return tail

    @property
    def is_local(self) -> bool:
        return self.kind == TARBALL and "://" not in self.location

    def pinned(self, *, commit: str | None, digest: str | None) -> SourceRef:
        return replace(self, commit=commit, digest=digest)

    def __str__(self) -> str:
        text = self.source + (f"@{self.version}" if self.version else "")
        return text + (f"#{self.commit}" if self.commit else "") + (f"={self.digest}" if self.digest else "")


def is_source(text: str, scm: str | None = None) -> bool:
    """Whether ``text`` names a git repository or a tarball rather than a registry role or a directory."""
    if scm == GIT or text.startswith(("git+", "git@")):
        return True
    if text.startswith(SCHEME):
        return False
    if "://" in text:
        return True
    return text.endswith(TARBALL_SUFFIXES)


def parse_source(text: str, scm: str | None, version: str | None, base_dir: Path) -> SourceRef:
    """``text`` (``is_source`` said yes) read as a source; a local tarball is anchored at ``base_dir``."""
    text = text.strip()
    if scm == GIT or text.startswith(("git+", "git@")) or (text.endswith(".git") and "://" in text):
        return SourceRef(GIT, text.removeprefix("git+"), version or None)
    if "://" in text:
        scheme = urlsplit(text).scheme
        if scheme not in DOWNLOAD_SCHEMES:
            raise ValueError(f"'{text}': a URL source is downloaded over {', '.join(DOWNLOAD_SCHEMES)} "
                             f"(not {scheme}); a git repository is written git+URL or with scm: git")
        return SourceRef(TARBALL, text)
    return SourceRef(TARBALL, str((base_dir / Path(text).expanduser()).resolve()))
