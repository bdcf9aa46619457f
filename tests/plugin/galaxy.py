"""A local role and collection registry behind basic authentication (``basic_registry``), one per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.galaxy.local_registry import LocalRegistry
from tests.support.galaxy import free_port, htpasswd_file


@pytest.fixture
def basic_registry(tmp_path: Path) -> Iterator[LocalRegistry]:
    registry = LocalRegistry(data_dir=tmp_path / "registry", port=free_port(),
                             htpasswd=htpasswd_file(tmp_path / "htpasswd"))
    with registry:
        yield registry
