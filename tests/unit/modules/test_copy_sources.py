"""Where copy finds its source on the controller, and how a source tree is named relative to dest."""

from __future__ import annotations

from pathlib import Path

import pytest

from modules.copy import walk_source_tree
from runner.actions.context import ActionContext
from runner.actions.run_state import DetachedRunState
from runner.connection import ConnectionSettings, HostSession
from runner.errors import UserError
from runner.module_index import ModuleIndex
from runner.templating import Templar


def context(search_paths: list[Path]) -> ActionContext:
    index = ModuleIndex()
    session = HostSession(ConnectionSettings.from_host_vars("localhost", {}), index)  # never connected here
    return ActionContext(host="localhost", module=index.get("copy"), args={}, state=DetachedRunState(),
                         templar=Templar(), connection=session, search_paths=search_paths)


def test_find_file_prefers_files_dir_then_search_path_order(tmp_path: Path) -> None:
    role, playbook = tmp_path / "role", tmp_path / "playbook"
    for base in (role, playbook):
        (base / "files").mkdir(parents=True)
    (playbook / "files" / "a.conf").write_text("playbook files/")
    (role / "a.conf").write_text("role dir")
    (playbook / "b.conf").write_text("playbook dir")
    ctx = context([role, playbook])
    assert ctx.find_file("a.conf").read_text() == "role dir"
    (role / "files" / "a.conf").write_text("role files/")
    assert ctx.find_file("a.conf").read_text() == "role files/"
    assert ctx.find_file("b.conf") == playbook / "b.conf"
    (playbook / "templates").mkdir()
    (playbook / "templates" / "t.j2").write_text("")
    assert ctx.find_file("t.j2", subdir="templates") == playbook / "templates" / "t.j2"


def test_find_file_absolute_and_missing(tmp_path: Path) -> None:
    absolute = tmp_path / "x"
    absolute.write_text("x")
    ctx = context([tmp_path / "nowhere"])
    assert ctx.find_file(str(absolute)) == absolute
    with pytest.raises(UserError, match="Could not find or access 'y'") as raised:
        ctx.find_file("y")
    assert str(tmp_path / "nowhere" / "files" / "y") in raised.value.message


def test_tree_with_and_without_trailing_slash(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "css").mkdir(parents=True)
    (site / "index.html").write_text("")
    (site / "css" / "main.css").write_text("")
    itself = walk_source_tree(str(site), follow_links=True)
    assert itself["directories"] == ["site", "site/css"]
    assert [relative for relative, _ in itself["files"]] == ["site/index.html", "site/css/main.css"]
    contents = walk_source_tree(str(site) + "/", follow_links=True)
    assert contents["directories"] == ["css"]
    assert dict(contents["files"]) == {"index.html": str(site / "index.html"),
                                       "css/main.css": str(site / "css" / "main.css")}


def test_tree_links_are_followed_or_kept(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "real").mkdir(parents=True)
    (site / "real" / "f").write_text("")
    (site / "alias").symlink_to("real")
    (site / "g").symlink_to("real/f")
    kept = walk_source_tree(str(site) + "/", follow_links=False)
    assert kept["links"] == [{"path": "alias", "target": "real"}, {"path": "g", "target": "real/f"}]
    assert [relative for relative, _ in kept["files"]] == ["real/f"]
    followed = walk_source_tree(str(site) + "/", follow_links=True)
    assert followed["links"] == [] and sorted(relative for relative, _ in followed["files"]) == [
        "alias/f", "g", "real/f"]
