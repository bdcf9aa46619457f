"""The jsonfile fact cache: ansible-core 2.19's file names and layout, expiry, clearing; and a cache plugin's."""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from runner.ansible_api.cache_plugins import PluginStore, file_safe_key
from runner.errors import OptionError
from runner.executor.fact_cache import FactCache, make_fact_cache, with_origin
from runner.util.unsafe import DescribedText


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


def test_where_a_value_was_set_is_kept_as_ansible_cores_origin_tag(tmp_path: Path) -> None:
    cache = FactCache(tmp_path)
    cache.update("web1", values=with_origin({"colour": "blue", "size": 3}, "/p/site.yml:4:7"))
    payload = json.loads(json.loads((tmp_path / "s1_web1").read_text())["__payload__"])
    assert payload["colour"] == {"value": "blue", "__ansible_type": "_AnsibleTaggedStr", "tags": [
        {"path": "/p/site.yml", "line_num": 4, "col_num": 7, "__ansible_type": "Origin"}]}
    assert payload["size"] == 3
    colour = FactCache(tmp_path).load(["web1"])["web1"].values["colour"]
    assert colour == "blue" and isinstance(colour, DescribedText) and colour.origin == "/p/site.yml:4:7"


class DictPlugin:
    """An Ansible cache plugin's interface, in memory; ``_persistent`` as ansible-core's memory plugin has it."""

    def __init__(self, persistent: bool) -> None:
        self._persistent = persistent
        self.data: dict[str, Any] = {}

    def get(self, key: str) -> Any:
        return self.data[key]

    def set(self, key: str, value: Any) -> None:
        self.data[key] = value

    def delete(self, key: str) -> None:
        del self.data[key]


@pytest.mark.parametrize("persistent", [True, False])
def test_a_cache_plugin_is_given_ansible_cores_keys_and_entries(persistent: bool) -> None:
    plugin = DictPlugin(persistent)
    cache = FactCache(store=PluginStore(plugin))
    cache.update("web1", facts={"os_family": "Debian"}, gathered=True)
    expected = {"ansible_os_family": "Debian", "_ansible_facts_gathered": True}
    if persistent:  # ansible-core 2.19's schema, as its interposer writes it
        assert json.loads(plugin.data["s1_web1"]["__payload__"]) == expected
    else:
        assert plugin.data == {"web1": expected}
    assert FactCache(store=PluginStore(plugin)).load(["web1", "web2"])["web1"].facts == {"os_family": "Debian"}
    cache.clear("web1")
    cache.clear("web2")  # nothing to delete: no error
    assert plugin.data == {}


def test_a_host_name_that_could_leave_the_folder_is_hashed_as_ansible_core_2_21_does(tmp_path: Path) -> None:
    assert file_safe_key("s1_web1") == "s1_web1"
    # sha256 of the key, as long as the key and at least 12 characters (ansible-core 2.21's _sanitize_key)
    assert file_safe_key("s1_..") == hashlib.sha256(b"s1_..").hexdigest()[:12]
    key = "s1_/my/chroot/host1"
    assert file_safe_key(key) == hashlib.sha256(key.encode()).hexdigest()[: len(key)]
    cache = FactCache(tmp_path, prefix="YOLO")
    cache.update("/my/chroot/host1", values={"a": 1})
    assert [path.name for path in tmp_path.iterdir()] == ["YOLO" + file_safe_key(key)]
    assert FactCache(tmp_path, prefix="YOLO").load(["/my/chroot/host1"])["/my/chroot/host1"].values == {"a": 1}


def test_a_cache_plugins_entry_that_cannot_be_read_is_warned_about() -> None:
    plugin = DictPlugin(persistent=True)
    plugin.data["s1_web1"] = {"__payload__": "{not json"}
    warnings: list[str] = []
    assert FactCache(store=PluginStore(plugin), warn=warnings.append).load(["web1"]) == {}
    assert "s1_web1" in warnings[0]
