"""``requirements.lock``: the exact roles an install chose, so every later install gets the same bytes.

Beside the requirements file, named after it (``requirements.yml`` → ``requirements.lock``)::

    # Written by provisioning-galaxy install; install --frozen installs exactly this.
    lock_version: 1
    requirements: sha256:...        # fingerprint of the requirements this lock was resolved from
    roles:
    - name: redis
      source: oci://registry.example.com/provisioning-extensions/redis
      version: 1.4.2
      digest: sha256:...            # the manifest's digest (a local directory: its archive's)
      dependencies: [os]
    - name: nginx
      source: git+https://git.example.com/team/nginx.git
      version: main                 # the branch, tag or commit asked for
      commit: 4f1c...               # the commit it resolved to
      digest: sha256:...            # the checkout's archive (a tarball source: the tarball's sha256)
      dependencies: []
    collections:                    # when requirements.yml has collections: the same fields
    - name: demo.tools
      source: oci://registry.example.com/team/demo.tools
      version: 1.0.0
      digest: sha256:...
      dependencies: [demo.base]

An install honours the lock for every role whose entry still satisfies what is asked; ``--frozen`` requires all
of them to, and the requirements to be the ones the lock was written for.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import Field

from runner.errors import SourcePosition
from runner.galaxy.errors import RequirementsError
from runner.galaxy.yamltext import to_yaml
from runner.loader.yaml import load_yaml_file
from runner.models.base import Model
from runner.models.types import Text
from runner.models.validation import validate
from runner.util.files import atomic_write_text

LOCK_VERSION = 1
HEADER = "# Written by provisioning-galaxy install; install --frozen installs exactly this.\n"


class _LockedRoleEntry(Model):
    KIND = "locked role"

    name: Text
    source: Text
    version: Text | None = None
    commit: Text | None = None
    digest: Text
    dependencies: list[str] = Field(default_factory=list)


class _LockFile(Model):
    KIND = "lock file"

    lock_version: int
    requirements: Text
    roles: list[_LockedRoleEntry] = Field(default_factory=list)
    collections: list[_LockedRoleEntry] = Field(default_factory=list)


@dataclass(frozen=True)
class LockedRole:
    name: str
    source: str
    version: str | None
    digest: str
    dependencies: tuple[str, ...] = ()
    commit: str | None = None  # of a git source


@dataclass
class Lock:
    requirements: str
    roles: list[LockedRole] = field(default_factory=list)
    collections: list[LockedRole] = field(default_factory=list)  # same fields; name is NAMESPACE.NAME

    def get(self, name: str) -> LockedRole | None:
        return next((role for role in self.roles if role.name == name), None)

    def of_collections(self) -> Lock:
        """The collections as a lock of their own, for resolving them as roles are resolved."""
        return Lock(self.requirements, list(self.collections))


def lock_path_for(requirements_path: Path) -> Path:
    return requirements_path.with_suffix(".lock")


def read_lock(path: Path) -> Lock | None:
    """The lock in ``path``, or None when there is none."""
    if not path.is_file():
        return None
    data = load_yaml_file(path)
    parsed = validate(_LockFile, {} if data is None else data, where=SourcePosition(str(path)))
    if parsed.lock_version != LOCK_VERSION:
        raise RequirementsError(f"{path} is a lock file of version {parsed.lock_version}; this version of "
                                f"provisioning-galaxy reads version {LOCK_VERSION}")
    return Lock(parsed.requirements, _locked(parsed.roles), _locked(parsed.collections))


def _locked(entries: list[_LockedRoleEntry]) -> list[LockedRole]:
    return [LockedRole(entry.name, entry.source, entry.version, entry.digest, tuple(entry.dependencies),
                       entry.commit) for entry in entries]


def render_lock(lock: Lock) -> str:
    data: dict[str, object] = {
        "lock_version": LOCK_VERSION,
        "requirements": lock.requirements,
        "roles": [_entry(role) for role in lock.roles],
    }
    if lock.collections:
        data["collections"] = [_entry(collection) for collection in lock.collections]
    return HEADER + to_yaml(data)


def _entry(role: LockedRole) -> dict[str, object]:
    entry: dict[str, object] = {"name": role.name, "source": role.source, "version": role.version}
    if role.commit:
        entry["commit"] = role.commit
    return {**entry, "digest": role.digest, "dependencies": list(role.dependencies)}


def write_lock(path: Path, lock: Lock) -> bool:
    """Write the lock unless the file already says the same; whether it was written."""
    text = render_lock(lock)
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    atomic_write_text(path, text)
    return True
