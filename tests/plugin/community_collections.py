"""Real collections for the compatibility layer's tests: ``community.general`` and ``ansible.posix`` as the
``ansible`` community package on PyPI ships them (its wheel holds ``ansible_collections/``).

The wheel is downloaded once with pip (``--no-deps``) into ~/.cache/provisioning-test-collections and only the
collections the tests use are extracted beside it, into a collections path kept across runs. Without network the
tests that need it are skipped, saying so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest

ANSIBLE_PACKAGE_VERSION = "12.3.0"  # the community package built on ansible-core 2.19
COLLECTIONS = ("community/general", "ansible/posix")
CACHE = Path(os.environ.get("PROVISIONING_TEST_COLLECTIONS_CACHE",
                            Path.home() / ".cache" / "provisioning-test-collections"))


def _wheel() -> Path:
    wheels = CACHE / "wheels"
    found = sorted(wheels.glob(f"ansible-{ANSIBLE_PACKAGE_VERSION}-*.whl"))
    if found:
        return found[0]
    wheels.mkdir(parents=True, exist_ok=True)
    download = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "-d", str(wheels),
                               f"ansible=={ANSIBLE_PACKAGE_VERSION}"],
                              capture_output=True, text=True, timeout=900, check=False)
    found = sorted(wheels.glob(f"ansible-{ANSIBLE_PACKAGE_VERSION}-*.whl"))
    if download.returncode != 0 or not found:
        pytest.skip(f"the ansible {ANSIBLE_PACKAGE_VERSION} package could not be downloaded from the package index: "
                    f"{download.stderr.strip()[-300:]}")
    return found[0]


def _extract(wheel: Path, target: Path) -> None:
    """The chosen collections of ``wheel`` into ``target``, which appears only once complete."""
    scratch = Path(tempfile.mkdtemp(prefix=".extracting-", dir=target.parent))
    try:
        prefixes = tuple(f"ansible_collections/{name}/" for name in COLLECTIONS)
        with zipfile.ZipFile(wheel) as archive:
            for member in archive.namelist():
                if member.startswith(prefixes) and not member.endswith("/"):
                    archive.extract(member, scratch)
        scratch.rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="session")
def community_collections(ansible_core: None) -> Path:
    """A collections path holding community.general and ansible.posix of the pinned ansible package."""
    target = CACHE / f"collections-{ANSIBLE_PACKAGE_VERSION}"
    if not (target / "ansible_collections").is_dir():
        target.parent.mkdir(parents=True, exist_ok=True)
        _extract(_wheel(), target)
    return target
