"""The collections search path a command uses: the configured entries, then the Python path's folders that hold
``ansible_collections/`` (where pip installs the ``ansible`` package's collections), as ansible-core searches."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from runner.cli.project import collection_search_path
from runner.config import load_config


def test_the_python_paths_collections_come_after_the_configured_ones(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    configured, site = tmp_path / "configured", tmp_path / "site-packages"
    for root in (configured, site):
        (root / "ansible_collections" / "demo" / "tools").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "bin"), str(site)])
    monkeypatch.setenv("ANSIBLE_COLLECTIONS_PATH", str(configured))
    assert collection_search_path(load_config({})) == [configured, site]
    monkeypatch.setenv("ANSIBLE_COLLECTIONS_SCAN_SYS_PATH", "false")
    assert collection_search_path(load_config({})) == [configured]
