"""Resolving module names: ansible.builtin/ansible.legacy to native modules, collection modules by FQCN through
the collections path (or natively, per the documented table), short names through a ``collections:`` list, and
modules written against Ansible's API told from native ones."""

from __future__ import annotations

import sys
import zipfile
from io import BytesIO
from pathlib import Path

import pytest

from runner.ansible_api import core
from runner.ansible_api.collections import NATIVE_EQUIVALENTS
from runner.ansible_api.results import normalize_result
from runner.errors import UserError
from runner.module_index import ModuleIndex

ANSIBLE_MODULE = b"from ansible.module_utils.basic import AnsibleModule\n"


def make_collection(base: Path, fqcn: str, source: bytes = ANSIBLE_MODULE) -> Path:
    namespace, coll, name = fqcn.split(".")
    path = base / "ansible_collections" / namespace / coll / "plugins" / "modules" / f"{name}.py"
    path.parent.mkdir(parents=True)
    path.write_bytes(source)
    return path


@pytest.mark.parametrize("prefix", ["ansible.builtin.", "ansible.legacy.", ""])
def test_builtin_and_legacy_names_are_the_native_modules(prefix: str) -> None:
    info = ModuleIndex().get(f"{prefix}copy")
    assert info.name == "copy" and not info.ansible_api and info.path.parent.name == "modules"


@pytest.mark.parametrize("fqcn", sorted(NATIVE_EQUIVALENTS))
def test_a_collection_module_with_a_native_equivalent_runs_natively(fqcn: str, tmp_path: Path) -> None:
    make_collection(tmp_path, fqcn)  # installed or not, the native module wins
    info = ModuleIndex(collections_paths=[tmp_path]).get(fqcn)
    assert not info.ansible_api and info.path.name == f"{NATIVE_EQUIVALENTS[fqcn]}.py"
    # a shipped file with a leading underscore keeps the full name, the only one that finds it
    assert info.name == (fqcn if NATIVE_EQUIVALENTS[fqcn].startswith("_") else NATIVE_EQUIVALENTS[fqcn])


def test_a_collection_module_is_found_in_the_first_collections_path_that_has_it(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    wanted = make_collection(second, "demo.tools.frobnicate")
    info = ModuleIndex(collections_paths=[first, second]).get("demo.tools.frobnicate")
    assert info.path == wanted and info.ansible_api and info.collection == "demo.tools"
    assert ModuleIndex(collections_paths=[first]).find("demo.tools.frobnicate") is None


def test_a_short_name_is_looked_up_in_the_collections_keyword_first(tmp_path: Path) -> None:
    make_collection(tmp_path, "demo.tools.ping")
    index = ModuleIndex(collections_paths=[tmp_path])
    assert index.get("ping").name == "ping"  # without the keyword: the native ping
    assert index.find("ping", ["demo.tools"]).name == "demo.tools.ping"  # type: ignore[union-attr]
    assert index.find("copy", ["demo.tools"]).name == "copy"  # type: ignore[union-attr]  # not in it: native
    assert index.find("ini_file", ["community.general"]).name == "ini_file"  # type: ignore[union-attr]


def test_ansible_builtin_names_the_shipped_module_never_a_library_or_collection_one(tmp_path: Path) -> None:
    library = tmp_path / "library"
    library.mkdir()
    (library / "ping.py").write_text("def run(module):\n    return {}\n")
    make_collection(tmp_path / "colls", "demo.tools.ping")
    index = ModuleIndex([library], collections_paths=[tmp_path / "colls"])
    assert index.get("ping").path == library / "ping.py"  # ansible.legacy: the library first
    builtin = index.find("ansible.builtin.ping", ["demo.tools"])
    assert builtin is not None and builtin.path.parent == index.shipped
    # the plan keeps the name as written, which the workers resolve to the same shipped module
    assert index.resolved_name("ansible.builtin.ping", builtin) == "ansible.builtin.ping"
    copy = index.get("ansible.builtin.copy")
    assert index.resolved_name("ansible.builtin.copy", copy) == "copy"


def test_a_library_module_is_ansible_api_only_when_it_imports_module_utils(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "mine.py").write_bytes(ANSIBLE_MODULE)
    (tmp_path / "library" / "native_one.py").write_text("ARGUMENT_SPEC = {}\n\ndef run(module):\n    return {}\n")
    index = ModuleIndex()
    index.add_project_dirs([tmp_path])
    assert index.get("mine").ansible_api and index.get("mine").any_arguments  # AnsibleModule checks on the host
    assert not index.get("native_one").ansible_api


@pytest.mark.usefixtures("ansible_core")
def test_a_collection_module_is_packed_with_its_collections_module_utils(tmp_path: Path) -> None:
    make_collection(tmp_path, "demo.tools.frobnicate", b"from ..module_utils.helper import value\n"
                    b"from ansible_collections.demo.tools.plugins.module_utils import other\n" + ANSIBLE_MODULE)
    utils = tmp_path / "ansible_collections" / "demo" / "tools" / "plugins" / "module_utils"
    utils.mkdir()
    (utils / "helper.py").write_text("from ansible.module_utils.six import PY3\nvalue = 1\n")
    (utils / "other.py").write_text("")
    index = ModuleIndex(collections_paths=[tmp_path])
    packed = index.packed(index.get("demo.tools.frobnicate"))
    assert packed.fqn == "ansible_collections.demo.tools.plugins.modules.frobnicate"
    names = set(zipfile.ZipFile(BytesIO(packed.source)).namelist())
    assert {"ansible_collections/__init__.py", "ansible_collections/demo/tools/plugins/module_utils/helper.py",
            "ansible_collections/demo/tools/plugins/module_utils/other.py",
            "ansible_collections/demo/tools/plugins/modules/frobnicate.py", "ansible/module_utils/six/__init__.py",
            "ansible/module_utils/basic.py"} <= names
    # The same sources pack to the same bytes: the agent caches the zip by its hash.
    again = ModuleIndex(collections_paths=[tmp_path])
    assert again.packed(again.get("demo.tools.frobnicate")).digest == packed.digest


def test_without_ansible_core_packing_says_what_to_install(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    make_collection(tmp_path, "demo.tools.frobnicate")
    monkeypatch.setitem(sys.modules, "ansible", None)  # as if not installed: not importable
    core._find.cache_clear()
    try:
        index = ModuleIndex(collections_paths=[tmp_path])
        with pytest.raises(UserError, match="needs ansible-core on the controller") as caught:
            index.packed(index.get("demo.tools.frobnicate"))
        assert "pip install" in (caught.value.hint or "")
    finally:
        core._find.cache_clear()


def test_a_library_module_without_extension_is_found_as_ansible_finds_it(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "ping").write_bytes(b"#!/usr/bin/python\n" + ANSIBLE_MODULE)
    (tmp_path / "library" / "script_module").write_text("#!/bin/bash\necho '{}'\n")
    index = ModuleIndex()
    index.add_project_dirs([tmp_path])
    assert index.get("ping").ansible_api and index.get("ping").path == tmp_path / "library" / "ping"
    script = index.get("script_module")  # another kind of module: an old-style script
    assert not script.ansible_api and script.legacy_style == "old"


def test_an_error_summary_becomes_the_results_message_and_traceback() -> None:
    summary = {"__ansible_type": "ErrorSummary", "event": {
        "msg": "module failed", "formatted_traceback": "Traceback ...", "chain": {
            "event": {"msg": "caused by this"}}}}
    result = normalize_result({"failed": True, "exception": summary})
    assert result == {"failed": True, "msg": "module failed: caused by this", "exception": "Traceback ..."}
    given = normalize_result({"failed": True, "msg": "own words", "exception": {"event": {"msg": "x"}}})
    assert given == {"failed": True, "msg": "own words"}


def test_internal_keys_leave_a_result_at_every_depth_but_the_top() -> None:
    echoed = {"args_in": {"task_arg": 1, "_ansible_check_mode": False, "nested": [{"_ansible_debug": False}]},
              "_ansible_no_log": False}
    assert normalize_result(echoed) == {"args_in": {"task_arg": 1, "nested": [{}]}, "_ansible_no_log": False}


def test_a_collections_action_plugin_or_routing_makes_a_short_name_known(tmp_path: Path) -> None:
    collection = tmp_path / "ansible_collections" / "demo" / "acts"
    (collection / "plugins" / "action").mkdir(parents=True)
    (collection / "plugins" / "action" / "only_action.py").write_text("")
    (collection / "meta").mkdir()
    (collection / "meta" / "runtime.yml").write_text(
        "plugin_routing:\n  modules:\n    routed_name:\n      redirect: demo.acts.only_action\n")
    index = ModuleIndex(collections_paths=[tmp_path])
    assert index.in_some_collection("only_action") and index.in_some_collection("routed_name")
    assert not index.in_some_collection("nothing_by_that_name")


def test_a_module_in_a_sub_folder_is_named_with_the_folder_and_routed_by_that_name(tmp_path: Path) -> None:
    path = tmp_path / "ansible_collections" / "acme" / "net" / "plugins" / "modules" / "sub" / "deep" / "hello.py"
    path.parent.mkdir(parents=True)
    path.write_bytes(ANSIBLE_MODULE)
    runtime = tmp_path / "ansible_collections" / "acme" / "net" / "meta" / "runtime.yml"
    runtime.parent.mkdir(parents=True)
    runtime.write_text("plugin_routing:\n  modules:\n    old_hello: {redirect: acme.net.sub.deep.hello}\n"
                       "    sub.gone: {redirect: acme.net.sub.deep.hello}\n")
    index = ModuleIndex(collections_paths=[tmp_path])
    for name in ("acme.net.sub.deep.hello", "acme.net.old_hello", "acme.net.sub.gone"):
        info = index.find(name)
        assert info is not None and info.path == path and info.name == "acme.net.sub.deep.hello", name
    assert index.find("acme.net.sub.nothing") is None
