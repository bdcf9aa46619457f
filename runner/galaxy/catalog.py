"""The resolver's catalog: registries through the content cache, local directories packed on the spot, git and
tarball sources fetched into the cache; for roles or collections, as its ``ContentKind`` says."""

from __future__ import annotations

from pathlib import Path

from runner.galaxy.archive import RoleArchive
from runner.galaxy.kinds import ContentKind
from runner.galaxy.reference import RoleRef
from runner.galaxy.resolver import Candidate, Origin
from runner.galaxy.source_fetch import SourceFetcher
from runner.galaxy.sources import SourceRef
from runner.galaxy.store import RoleStore


class StoreCatalog:
    def __init__(self, store: RoleStore, kind: ContentKind):
        self.store = store
        self.kind = kind
        self.sources = SourceFetcher(store.cache, store.context.max_archive_size, kind.is_content, kind.pack,
                                     kind.is_metadata)
        self._local: dict[Path, RoleArchive] = {}

    def versions(self, ref: RoleRef) -> list[str]:
        return self.store.versions(ref)

    def candidate(self, origin: Origin) -> Candidate:
        if isinstance(origin, SourceRef):
            fetched = self.sources.fetch(origin)
            found = self.kind.describe(fetched.tree)
            return Candidate(fetched.digest, origin.version, found.dependencies, fetched.commit, found.name)
        if isinstance(origin, Path):
            found = self.kind.describe(origin)
            return Candidate(self.local_archive(origin).digest, found.version, found.dependencies, name=found.name)
        artifact = self.store.artifact(origin)
        return Candidate(artifact.digest, artifact.version, tuple(artifact.config.dependencies),
                         name=artifact.config.name)

    def local_archive(self, directory: Path) -> RoleArchive:
        if directory not in self._local:
            self._local[directory] = self.kind.pack(directory)
        return self._local[directory]
