"""Plugin routing from runtime.yml: a collection's ``meta/runtime.yml`` (the demo collection's redirects,
deprecation, tombstone and loop), and ansible-core's own routing of short names to the collections its modules and
plugins moved to, read from the installed ansible-core."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.ansible_api import routing
from runner.ansible_api.routing import RoutingError, route
from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.module_index import ModuleIndex

COLLECTIONS = Path(__file__).resolve().parents[2] / "data" / "collections"


def demo_index(warnings: list[str] | None = None) -> ModuleIndex:
    return ModuleIndex(collections_paths=[COLLECTIONS], warn=(warnings if warnings is not None else []).append)


def test_a_redirect_with_a_deprecation_resolves_to_its_target_and_warns() -> None:
    warnings: list[str] = []
    info = demo_index(warnings).get("demo.tools.old_frob")
    assert info.name == "demo.tools.frob" and info.collection == "demo.tools"
    assert warnings == ["'demo.tools.old_frob' is deprecated: use demo.tools.frob instead (removal: 3.0.0)"]


def test_a_chain_of_redirects_is_followed_to_its_end() -> None:
    warnings: list[str] = []
    assert demo_index(warnings).get("demo.tools.frob_alias").name == "demo.tools.frob"
    assert len(warnings) == 1  # the deprecated step on the way


def test_a_short_name_through_collections_follows_the_collections_routing() -> None:
    assert demo_index().find("old_frob", ["demo.tools"]).name == "demo.tools.frob"  # type: ignore[union-attr]


@pytest.mark.parametrize(("name", "message"), [
    ("demo.tools.gone", "'demo.tools.gone' has been removed: use demo.tools.frob instead (removal: 2.0.0)"),
    ("demo.tools.loop_a", "loops: demo.tools.loop_a -> demo.tools.loop_b -> demo.tools.loop_a"),
    ("demo.tools.bare", "redirects must use fully qualified collection names"),
])
def test_a_tombstone_a_loop_and_a_short_redirect_are_errors(name: str, message: str) -> None:
    with pytest.raises(RoutingError, match=re.escape(message)):
        demo_index().find(name)


def test_a_redirect_to_a_collection_not_installed_names_it() -> None:
    with pytest.raises(UserError, match=re.escape("the collection absent.collection is not installed")) as caught:
        demo_index().get("demo.tools.moved_away")
    assert "collection install absent.collection" in str(caught.value.hint)


def test_a_removed_module_is_a_compile_error_at_the_tasks_line(tmp_path: Path) -> None:
    playbook = tmp_path / "site.yml"
    playbook.write_text("- hosts: all\n  tasks:\n    - demo.tools.gone: {}\n")
    with pytest.raises(UserError) as caught:
        Compiler(CompileOptions(collections_path=[COLLECTIONS])).compile_playbooks([playbook])
    assert f"{playbook}:3:7" in caught.value.render()
    assert "'demo.tools.gone' has been removed" in caught.value.message


def test_unrouted_names_stay_as_they_are() -> None:
    assert route("modules", "demo.tools.frob", [COLLECTIONS]) == "demo.tools.frob"
    assert route("modules", "other.coll.x", [COLLECTIONS]) == "other.coll.x"  # not installed: nothing routes it


@pytest.mark.usefixtures("ansible_core")
def test_ansible_cores_routing_sends_a_short_name_to_its_collection(community_collections: Path) -> None:
    index = ModuleIndex(collections_paths=[community_collections])
    for name in ("mount", "ansible.builtin.mount", "ansible.legacy.mount"):
        assert index.get(name).name == "ansible.posix.mount"
    assert index.get("copy").name == "copy"  # a native module is never routed
    assert index.get("ini_file").name == "ini_file"  # routed to community.general.ini_file: its native equivalent


@pytest.mark.usefixtures("ansible_core")
def test_a_routed_module_whose_collection_is_missing_names_the_collection(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=re.escape(
            "ansible-core routes it to ansible.posix.mount; the collection ansible.posix is not installed")):
        ModuleIndex(collections_paths=[tmp_path]).get("mount")


@pytest.mark.usefixtures("ansible_core")
def test_a_module_ansible_core_removed_is_an_error_with_its_message() -> None:
    with pytest.raises(RoutingError, match=re.escape("'ansible.builtin.include' has been removed: Use include_tasks")):
        ModuleIndex().find("include")


@pytest.fixture
def without_ansible_core(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The controller as it is without the ``ansible`` extra (ansible-core itself stays installed for others)."""
    monkeypatch.setattr(routing, "installed_ansible_core", lambda: None)
    routing.builtin_runtime.cache_clear()
    yield
    routing.builtin_runtime.cache_clear()


@pytest.mark.usefixtures("without_ansible_core")
def test_without_ansible_core_short_names_are_not_routed_and_the_error_says_how_to_route_them(
        tmp_path: Path) -> None:
    with pytest.raises(UserError) as caught:
        ModuleIndex(collections_paths=[tmp_path]).get("mount")
    assert caught.value.message == "couldn't resolve module/action 'mount'"
    assert "install the `ansible` extra to follow its routing" in str(caught.value.hint)
