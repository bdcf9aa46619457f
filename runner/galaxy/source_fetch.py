"""Fetching git and tarball sources into the content cache, as archives ready to install.

Every source ends up as the same thing a registry gives: a reproducible archive of the content (paths relative
to the role or collection), checked by the archive rules, plus its unpacked tree to read metadata from.

- git: checked out at the asked (or locked) commit and packed; the packed archive's digest is the lock's
  ``digest`` and its cache key, so a locked git role installs from the cache without git or network.
- tarball: downloaded (or read) into the cache under its own sha256, the lock's ``digest``; unpacked with the
  archive rules, then the content's directory is found (the top, or the single directory at the top, as
  ``ansible-galaxy`` strips it) and packed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from runner.galaxy.archive import RoleArchive, build_archive, sha256_digest
from runner.galaxy.cache import ContentCache
from runner.galaxy.download import download
from runner.galaxy.errors import GalaxyError, VerificationError
from runner.galaxy.extract import extract_archive
from runner.galaxy.gitsource import checkout
from runner.galaxy.sources import GIT, SourceRef

ContentCheck = Callable[[Path], bool]
Packer = Callable[[Path], RoleArchive]
NameFilter = Callable[[str], bool]


def is_role_dir(directory: Path) -> bool:
    return (directory / "tasks").is_dir() or (directory / "meta").is_dir()


def is_role_metadata(name: str) -> bool:
    return name.removeprefix("./").startswith("meta/")


@dataclass(frozen=True)
class FetchedSource:
    digest: str
    commit: str | None
    archive: Path  # the packed content, ready for install_archive
    tree: Path  # the content unpacked (its metadata at least), for its metadata


class SourceFetcher:
    def __init__(self, cache: ContentCache, max_size: int, is_content: ContentCheck = is_role_dir,
                 pack: Packer = build_archive, is_metadata: NameFilter = is_role_metadata):
        self.cache = cache
        self.max_size = max_size
        self.is_content = is_content
        self.pack = pack
        self.is_metadata = is_metadata
        self._scratch: tempfile.TemporaryDirectory[str] | None = None
        self._fetched: dict[str, FetchedSource] = {}

    def close(self) -> None:
        if self._scratch is not None:
            self._scratch.cleanup()
            self._scratch = None
        self._fetched.clear()

    def fetch(self, ref: SourceRef) -> FetchedSource:
        key = str(ref)
        if key not in self._fetched:
            self._fetched[key] = self._fetch_git(ref) if ref.kind == GIT else self._fetch_tarball(ref)
        return self._fetched[key]

    def _workdir(self, label: str) -> Path:
        if self._scratch is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="provisioning-galaxy-sources-")
        return Path(tempfile.mkdtemp(prefix=f"{label}.", dir=self._scratch.name))

    def _fetch_git(self, ref: SourceRef) -> FetchedSource:
        cached = self.cache.find(ref.digest) if ref.digest and ref.commit else None
        if cached is not None:
            # Locked and cached: the metadata is all resolving needs; installing unpacks the archive itself.
            tree = self._workdir("git") / "tree"
            extract_archive(cached, tree, self.max_size, ref.source, only=self.is_metadata)
            return FetchedSource(ref.digest or "", ref.commit, cached, tree)
        tree = self._workdir("git") / "checkout"
        commit = checkout(ref.location, ref.commit or ref.version, tree, ref.source)
        if ref.commit and commit != ref.commit:
            raise VerificationError(f"{ref.source}: '{ref.commit}' checked out as {commit}")
        packed = self.pack(tree)
        if ref.digest and packed.digest != ref.digest:
            raise VerificationError(f"{ref.source} at {commit} packs to {packed.digest}, not {ref.digest} as the "
                                    "lock file says")
        path = self.cache.store(packed.digest, packed.data)
        return FetchedSource(packed.digest, commit, path, tree)

    def _fetch_tarball(self, ref: SourceRef) -> FetchedSource:
        if ref.is_local:
            digest, path = self._local_tarball(ref)
        else:
            digest, path = download(ref.location, self.cache, self.max_size, ref.digest)
        work = self._workdir("tarball")
        extract_archive(path, work / "unpacked", self.max_size, ref.source)
        tree = self._content_root(work / "unpacked", ref)
        archive = work / "content.tar.gz"
        archive.write_bytes(self.pack(tree).data)
        return FetchedSource(digest, None, archive, tree)

    def _local_tarball(self, ref: SourceRef) -> tuple[str, Path]:
        try:
            data = Path(ref.location).read_bytes()
        except OSError as exc:
            raise GalaxyError(f"cannot read {ref.location}: {exc.strerror}") from None
        digest = sha256_digest(data)
        if ref.digest and digest != ref.digest:
            raise VerificationError(f"{ref.location} is {digest}, not {ref.digest} as the lock file says: it "
                                    "changed since it was locked (install without --frozen to take the new one)")
        return digest, self.cache.store(digest, data)

    def _content_root(self, unpacked: Path, ref: SourceRef) -> Path:
        if self.is_content(unpacked):
            return unpacked
        children = [child for child in unpacked.iterdir() if not child.name.startswith(".")]
        if len(children) == 1 and children[0].is_dir() and not children[0].is_symlink() \
                and self.is_content(children[0]):
            return children[0]
        raise GalaxyError(f"{ref.source} holds no role or collection at its top or in a single top directory")
