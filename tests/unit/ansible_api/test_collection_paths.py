"""The collections search path as ansible-core builds it, the collection a path belongs to, and a collection's
playbooks by their names (``NS.COLL[.SUBDIR].NAME``)."""

from __future__ import annotations

from pathlib import Path

from runner.ansible_api.collections import (
    collection_dir,
    collection_of_path,
    collection_search_path,
    find_collection_playbook,
    find_collection_plugin,
    split_fqcr,
)


def collection(root: Path, name: str) -> Path:
    namespace, coll = name.split(".")
    path = root / "ansible_collections" / namespace / coll
    path.mkdir(parents=True)
    return path


def test_the_folder_beside_the_playbooks_comes_first_and_an_ansible_collections_entry_is_its_parent(
        tmp_path: Path) -> None:
    configured = tmp_path / "user"
    collection(configured, "demo.tools")
    missing = tmp_path / "missing"
    found = collection_search_path([missing, configured / "ansible_collections"], [tmp_path / "play"])
    assert found == [tmp_path / "play" / "collections", configured]


def test_a_path_belongs_to_the_collection_the_search_path_finds_under_that_name(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    collection(first, "demo.tools")
    masked = collection(second, "demo.tools")
    paths = [first, second]
    assert collection_of_path(first / "ansible_collections/demo/tools/playbooks/site.yml", paths) == "demo.tools"
    assert collection_of_path(masked / "playbooks" / "site.yml", paths) is None  # masked by the first one
    assert collection_of_path(tmp_path / "site.yml", paths) is None


def test_a_collection_playbook_by_name_with_or_without_its_extension_and_in_subfolders(tmp_path: Path) -> None:
    playbooks = collection(tmp_path, "demo.tools") / "playbooks"
    (playbooks / "type").mkdir(parents=True)
    (playbooks / "site.yml").write_text("[]\n")
    (playbooks / "type" / "play.yaml").write_text("[]\n")
    paths = [tmp_path]
    assert find_collection_playbook("demo.tools.site", paths) == (playbooks / "site.yml", "demo.tools")
    assert find_collection_playbook("demo.tools.site.yml", paths) == (playbooks / "site.yml", "demo.tools")
    assert find_collection_playbook("demo.tools.type.play", paths) == (playbooks / "type" / "play.yaml",
                                                                      "demo.tools")
    assert find_collection_playbook("demo.tools.other", paths) is None
    assert find_collection_playbook("site.yml", paths) is None


def test_a_fully_qualified_reference_splits_into_collection_subfolders_and_name() -> None:
    assert split_fqcr("demo.tools.web") == ("demo.tools", (), "web")
    assert split_fqcr("demo.tools.sub.dir.web") == ("demo.tools", ("sub", "dir"), "web")
    assert split_fqcr("geerlingguy.nginx") is None
    assert split_fqcr("../roles/web") is None


def test_a_collection_in_a_later_path_is_masked_by_the_first_copy(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    collection(first, "demo.tools")
    module = collection(second, "demo.tools") / "plugins" / "modules" / "only_here.py"
    module.parent.mkdir(parents=True)
    module.write_text("")
    assert find_collection_plugin("demo.tools", "modules", "only_here", [second]) == module
    assert find_collection_plugin("demo.tools", "modules", "only_here", [first, second]) is None


def test_a_name_with_more_parts_than_ns_coll_is_no_collection(tmp_path: Path) -> None:
    collection(tmp_path, "demo.tools")
    assert collection_dir("demo.tools.sub", [tmp_path]) is None
    assert collection_dir("demo.tools", [tmp_path]) == tmp_path / "ansible_collections" / "demo" / "tools"
