"""A play's ``vars_files`` (runner/compiler/__init__.py), found and read as Ansible does: ``vars/NAME`` before
``NAME`` beside the playbook, and a file holding a list of mappings merged in order."""

from __future__ import annotations

from pathlib import Path

from runner.compiler import CompileOptions, Compiler


def _vars_files_scope(tmp_path: Path, entry: str) -> dict[str, object]:
    (tmp_path / "site.yml").write_text(f"- hosts: all\n  vars_files: [{entry}]\n  tasks: []\n")
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    return next(scope.vars for scope in plan.scopes if scope.name.startswith("vars_files"))


def test_vars_dir_first(tmp_path: Path) -> None:
    (tmp_path / "vars").mkdir()
    (tmp_path / "common.yml").write_text("where: beside\n")
    (tmp_path / "vars" / "common.yml").write_text("where: vars dir\n")
    assert _vars_files_scope(tmp_path, "common.yml") == {"where": "vars dir"}
    assert _vars_files_scope(tmp_path, "vars/common.yml") == {"where": "vars dir"}


def test_a_list_of_mappings_is_merged_in_order(tmp_path: Path) -> None:
    (tmp_path / "layers.yml").write_text("- {a: 1, b: 1}\n- {b: 2}\n")
    assert _vars_files_scope(tmp_path, "layers.yml") == {"a": 1, "b": 2}
