"""include_vars' directory options and hash_behaviour, as Ansible's action reads them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from runner.actions import ACTIONS, ActionContext, run_action
from runner.module_index import ModuleIndex
from runner.templating import Templar
from tests.unit.actions.test_registry import RecordedRunState

INDEX = ModuleIndex()


def include(args: dict[str, Any], base: Path, task_vars: dict[str, Any] | None = None) -> dict[str, Any]:
    ctx = ActionContext(host="web1", module=INDEX.get("include_vars"), args=args, state=RecordedRunState(),
                        templar=Templar({}), search_paths=[base], task_vars=task_vars or {})
    return asyncio.run(run_action(ACTIONS["include_vars"], ctx))


def tree(base: Path) -> Path:
    """vars/conf/{a.yml, b.yaml, notes.txt, skip_me.yml, sub/c.yml, sub/deeper/d.yml}"""
    top = base / "vars" / "conf"
    (top / "sub" / "deeper").mkdir(parents=True)
    for name, text in {"a.yml": "a: 1\nshared: a\n", "b.yaml": "b: 2\nshared: b\n", "notes.txt": "plain text\n",
                       "skip_me.yml": "skipped: true\n", "sub/c.yml": "c: 3\n", "sub/deeper/d.yml": "d: 4\n"}.items():
        (top / name).write_text(text)
    return top


def test_a_directory_is_read_in_order_down_to_depth_and_filtered(tmp_path: Path) -> None:
    top = tree(tmp_path)
    result = include({"dir": "conf", "depth": 2, "ignore_files": ["skip_me.yml", r"\.txt"]}, tmp_path)
    assert result["ansible_facts"] == {"a": 1, "b": 2, "shared": "b", "c": 3}
    assert result["ansible_included_var_files"] == [str(top / "a.yml"), str(top / "b.yaml"),
                                                    str(top / "sub" / "c.yml")]
    matching = include({"dir": "conf", "files_matching": "^[cd]"}, tmp_path)
    assert matching["ansible_facts"] == {"c": 3, "d": 4}


def test_a_file_of_another_extension_fails_unless_ignored(tmp_path: Path) -> None:
    tree(tmp_path)
    failed = include({"dir": "conf", "ignore_files": ["skip_me.yml"]}, tmp_path)
    assert failed["failed"] is True and "does not have a valid extension: json, yaml, yml" in failed["message"]
    ignored = include({"dir": "conf", "ignore_unknown_extensions": True, "ignore_files": "skip_me.yml"}, tmp_path)
    assert "skipped" not in ignored["ansible_facts"] and ignored["ansible_facts"]["d"] == 4


def test_file_and_directory_options_do_not_mix(tmp_path: Path) -> None:
    tree(tmp_path)
    mixed = include({"file": "conf/a.yml", "depth": 1}, tmp_path)
    assert mixed["message"] == "You are mixing file only and dir only arguments, these are incompatible"


def test_hash_behaviour_merge_merges_into_the_hosts_variables(tmp_path: Path) -> None:
    (tmp_path / "vars").mkdir()
    (tmp_path / "vars" / "more.yml").write_text("config: {b: 2, nested: {y: 2}}\n")
    existing = {"config": {"a": 1, "nested": {"x": 1}}}
    merged = include({"file": "more.yml", "hash_behaviour": "merge"}, tmp_path, existing)
    assert merged["ansible_facts"] == {"config": {"a": 1, "b": 2, "nested": {"x": 1, "y": 2}}}
    replaced = include({"file": "more.yml"}, tmp_path, existing)
    assert replaced["ansible_facts"] == {"config": {"b": 2, "nested": {"y": 2}}}
