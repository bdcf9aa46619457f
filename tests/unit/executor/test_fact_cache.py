"""The jsonfile fact cache: ansible-core 2.19's file names and layout, expiry, clearing."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from runner.errors import OptionError
from runner.executor.fact_cache import FactCache, make_fact_cache


def test_written_as_ansible_core_writes_it(tmp_path: Path) -> None:
    cache = FactCache(tmp_path, prefix="p_")
    cache.update("web1", facts={"os_family": "Debian"}, gathered=True)
    cache.update("web1", values={"colour": "blue"})
    entry = json.loads((tmp_path / "p_s1_web1").read_text())
    assert json.loads(entry["__payload__"]) == {
        "ansible_os_family": "Debian", "colour": "blue", "_ansible_facts_gathered": True}


def test_reads_ansible_cores_tagged_values(tmp_path: Path) -> None:
    payload = {"ansible_os_family": "Debian", "_ansible_facts_gathered": True,
               "colour": {"value": 1, "tags": [{"path": "p.yml", "__ansible_type": "Origin"}],
                          "__ansible_type": "_AnsibleTaggedInt"}}
    (tmp_path / "s1_web1").write_text(json.dumps({"__payload__": json.dumps(payload)}))
    loaded = FactCache(tmp_path).load(["web1", "web2"])
    assert list(loaded) == ["web1"]
    assert loaded["web1"].facts == {"os_family": "Debian"}
    assert loaded["web1"].values == {"colour": 1}
    assert loaded["web1"].gathered


def test_expired_entry_is_not_read(tmp_path: Path) -> None:
    FactCache(tmp_path).update("web1", facts={"a": 1}, gathered=True)
    old = time.time() - 120
    os.utime(tmp_path / "s1_web1", (old, old))
    assert FactCache(tmp_path, timeout=60).load(["web1"]) == {}
    assert FactCache(tmp_path, timeout=0).load(["web1"])["web1"].facts == {"a": 1}


def test_unreadable_entry_is_warned_about(tmp_path: Path) -> None:
    (tmp_path / "s1_web1").write_text("{not json")
    warnings: list[str] = []
    assert FactCache(tmp_path, warn=warnings.append).load(["web1"]) == {}
    assert "s1_web1" in warnings[0]


def test_clear_removes_the_entry(tmp_path: Path) -> None:
    cache = FactCache(tmp_path)
    cache.update("web1", facts={"a": 1}, gathered=True)
    cache.clear("web1")
    assert not (tmp_path / "s1_web1").exists()
    assert not cache.gathered("web1")


def test_memory_cache_writes_nothing(tmp_path: Path) -> None:
    cache = make_fact_cache("memory", tmp_path, prefix="", timeout=0, warn=print)
    cache.update("web1", facts={"a": 1}, gathered=True)
    assert cache.gathered("web1") and not list(tmp_path.iterdir())


def test_jsonfile_needs_a_directory(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match="fact_caching_connection"):
        make_fact_cache("jsonfile", None, prefix="", timeout=0, warn=print)
    made = make_fact_cache("jsonfile", tmp_path / "new", prefix="", timeout=0, warn=print)
    assert made.directory is not None and made.directory.is_dir()
