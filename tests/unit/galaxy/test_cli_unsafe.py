"""``provisioning-galaxy`` refusing a hostile role archive: a clear message and exit code, no traceback, nothing
installed. The role comes from the content cache (an install by digest needs no registry once its content is
cached), so the archive reaches the same checks as one downloaded from a registry."""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path

import pytest

from runner.galaxy.archive import RoleArchive, sha256_digest
from runner.galaxy.artifact import RoleConfig, build_manifest
from runner.galaxy.cache import ContentCache
from tests.support.scripts import script
from tests.unit.galaxy.test_archive import _file, _link, archive_of

# Nothing listens there: a command that tried the registry instead of the cache would fail differently.
REPOSITORY = "oci://127.0.0.1:9/team/evil"


def cached_role(home: Path, layer: Path) -> str:
    """Put a role artifact with ``layer`` as its archive into the content cache; the digest of its manifest."""
    cache = ContentCache(home / "cache")
    config = RoleConfig(name="evil", version="1.0.0").to_bytes()
    data = layer.read_bytes()
    manifest = build_manifest(config, RoleArchive(data, sha256_digest(data), 3), {}, "evil.tar.gz")
    for blob in (config, data, manifest):
        cache.store(sha256_digest(blob), blob)
    return sha256_digest(manifest)


@pytest.mark.parametrize("command", ["pull", "install"])
def test_a_symlink_chain_out_of_the_role_is_refused_by_the_cli(tmp_path: Path, command: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "provisioning.cfg").write_text("[galaxy]\ncache_dir = cache\nauth_file = auth.json\n")
    layer = archive_of(tmp_path / "evil.tar.gz", _file("tasks/main.yml"), _link("sub/lnk", ".", tarfile.SYMTYPE),
                       _link("p", "sub/lnk/../..", tarfile.SYMTYPE),
                       _link("x", "sub/lnk/../../outside", tarfile.SYMTYPE))
    reference = f"{REPOSITORY}@{cached_role(home, layer)}"
    args = ["role", "pull", reference] if command == "pull" else ["install", reference]
    env = {**os.environ, "HOME": str(home), "PROVISIONING_CONFIG": str(home / "provisioning.cfg")}
    env.pop("PROVISIONING_DEBUG", None)
    run = subprocess.run([script("provisioning-galaxy"), *args, "-p", str(tmp_path / "roles")], env=env,
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stderr.strip() == (f"ERROR: refusing role archive {REPOSITORY}:1.0.0@{reference.split('@')[1]}: "
                                  "symlink escape: 'p' points outside the role (-> sub/lnk/../.., which leads to ..)")
    assert "Traceback" not in run.stderr and "internal error" not in run.stderr
    assert not (tmp_path / "roles" / "evil").exists() and not (tmp_path / "outside").exists()
