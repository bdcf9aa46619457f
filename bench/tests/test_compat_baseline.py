"""ansible-core's pass list (the baseline file) and the per-group table of ours among its passes; the harness's
choice of ansible-core version (sdist hash, selection file, the version the targets are told)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from bench.compat import sdist
from bench.compat.__main__ import main
from bench.compat.baseline import baseline_file, read_failed, read_names, render
from bench.compat.report import Results, list_table
from bench.compat.runners import Runner
from bench.compat.selection import SELECTION_FILE, selection_file
from bench.compat.targets import TargetSet
from bench.compat.workspace import Workspace

GROUPS = {"engine": ["a", "b", "c", "d"], "lookups": ["lookup_x", "lookup_y"], "filters_tests": [],
          "file_modules": ["copy"], "system_modules": [], "cli": ["adhoc"]}


def test_the_table_counts_ours_among_ansible_cores_passes_not_beside_them() -> None:
    baseline = {"a", "b", "c", "lookup_x", "adhoc"}
    ours = {"a", "d", "lookup_x", "lookup_y", "copy", "elsewhere"}  # d, lookup_y, copy: ansible-core fails them
    rows = {line.split(" | ")[0].lstrip("| "): line for line in list_table(GROUPS, ours, baseline, "9.9.9").splitlines()
            if line.startswith("| ")}
    assert rows["engine semantics"] == "| engine semantics | 4 | 3 | 2 | 1/3 (33%) |"
    assert rows["lookups"] == "| lookups | 2 | 1 | 2 | 1/1 (100%) |"
    assert rows["file modules"] == "| file modules | 1 | 0 | 1 | 0/0 (-) |"
    assert rows["CLI (runme.sh)"] == "| CLI (runme.sh) | 1 | 1 | 0 | 0/1 (0%) |"
    # a target outside the selection (not run by the suite) counts nowhere
    assert rows["**all**"] == "| **all** | 8 | 5 | 5 | 2/5 (40%) |"


def test_the_table_names_what_ours_passes_and_ansible_core_fails() -> None:
    table = list_table(GROUPS, {"a", "d", "copy", "elsewhere"}, {"a"}, "9.9.9")
    assert "ansible-core 9.9.9 fails here: copy, d." in table


def test_targets_ansible_core_was_not_run_on_are_not_counted_as_its_failures() -> None:
    table = list_table(GROUPS, {"a", "d", "copy"}, {"a"}, "9.9.9", failing={"d", "b"})
    assert "ansible-core 9.9.9 fails here: d." in table
    assert "Not measured with ansible-core 9.9.9 (5): adhoc, c, copy, lookup_x, lookup_y." in table


def test_the_baseline_file_lists_passes_and_says_how_it_was_made(tmp_path: Path) -> None:
    results = {"runner": "ansible", "version": "2.19.14", "date": "2026-11-29", "timeout": 480,
               "targets": {"b": {"passed": True, "rc": 0}, "a": {"passed": True, "rc": 0},
                           "c": {"passed": False, "rc": 2}, "lookup_x": {"passed": False, "rc": None}}}
    text = render(results, ["a", "b", "c", "d", "lookup_x"], 480)
    assert "--runner ansible" in text and "2026-11-29" in text and "480 s per target" in text
    path = tmp_path / "ansible-core.txt"
    path.write_text(text)
    assert read_names(path) == ["a", "b"]  # sorted; failures and targets not run are comments
    assert read_failed(path) == {"c", "lookup_x"}
    assert "# fails: c (rc=2)" in text and "# fails: lookup_x (killed at the time limit)" in text
    assert "# not run: d" in text


def test_a_baseline_comes_only_from_ansible_cores_own_run() -> None:
    with pytest.raises(ValueError, match="--runner ansible"):
        render({"runner": "ours", "version": "0.1.0", "date": "2026-11-29", "targets": {}}, [], None)


def test_table_reads_expected_and_the_baseline_file(capsys: pytest.CaptureFixture[str]) -> None:
    if not baseline_file().exists():
        pytest.skip("no baseline file for the pinned version")
    assert main(["--table"]) == 0
    assert "ours, of ansible-core's passes" in capsys.readouterr().out


def test_table_takes_no_file_or_two() -> None:
    with pytest.raises(SystemExit):
        main(["--table", "one.json"])


def test_each_version_has_its_own_selection_file_and_the_pin_keeps_selection_yml() -> None:
    assert selection_file(sdist.ANSIBLE_CORE_VERSION) == SELECTION_FILE
    assert selection_file("2.21.5").name == "selection-2.21.5.yml"


def test_a_version_without_a_published_hash_is_refused_before_any_download(tmp_path: Path) -> None:
    with pytest.raises(sdist.SdistError, match=r"no sha256 known for ansible-core 0\.0\.1"):
        sdist.download("0.0.1", tmp_path)
    assert not list(tmp_path.iterdir())


def test_a_cached_sdist_that_is_not_the_published_file_is_deleted(tmp_path: Path) -> None:
    (tmp_path / sdist.sdist_name("2.21.5")).write_bytes(b"not the sdist")
    with pytest.raises(sdist.SdistError, match="is not PyPI's published"):
        sdist.download("2.21.5", tmp_path)
    assert not (tmp_path / sdist.sdist_name("2.21.5")).exists()


def test_targets_are_told_the_version_of_the_sdist_they_come_from(tmp_path: Path) -> None:
    root = tmp_path / "test" / "integration" / "targets" / "lookup_items" / "tasks"
    root.mkdir(parents=True)
    (root / "main.yml").write_text("- debug: msg=hi\n")
    (root.parent / "aliases").write_text("shippable/posix/group1\n")
    targets = TargetSet(root.parent.parent, "2.21.5")
    work = tmp_path / "work"
    work.mkdir()
    workspace = Workspace.create(targets["lookup_items"], targets, work)
    env = workspace.environment(targets["lookup_items"], Runner("ours", Path(sys.executable).parent), tmp_path, {})
    assert env["ANSIBLE_TEST_ANSIBLE_VERSION"] == "2.21.5"


def test_results_of_one_versions_targets_are_not_resumed_with_anothers(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"runner": "ours", "targets_version": "2.19.14", "targets": {}}))
    with pytest.raises(SystemExit, match=r"2\.19\.14's targets, not 2\.21\.5's"):
        Results(path, "ours", "0.1.0", True, "2.21.5")
    assert Results(path, "ours", "0.1.0", True, "2.19.14").data["targets_version"] == "2.19.14"


def test_a_row_across_the_groups_counts_its_selected_targets_only() -> None:
    across = {"*shipping plugins*": {"a", "b", "lookup_x", "copy", "elsewhere"}}
    table = list_table(GROUPS, {"a", "lookup_x", "copy", "elsewhere"}, {"a", "b", "lookup_x"}, "9.9.9",
                       across=across)
    assert "| *shipping plugins* | 4 | 3 | 3 | 2/3 (67%) |" in table.splitlines()


@pytest.mark.parametrize(("folder", "ships"), [
    ("library", True),
    ("roles/r/library", True),
    ("module_utils", True),
    ("filter_plugins", True),
    ("playbook/sub/lookup_plugins", True),
    ("collections/ansible_collections/ns/col/plugins", True),
    ("plugins", False),  # only a collection's plugins/ folder holds plugins
    ("templates", False),
])
def test_a_target_ships_api_plugins_when_it_has_their_folders(tmp_path: Path, folder: str, ships: bool) -> None:
    target_dir = tmp_path / "some_target"
    (target_dir / "tasks").mkdir(parents=True)
    (target_dir / folder).mkdir(parents=True)
    assert TargetSet(tmp_path)["some_target"].ships_api_plugins is ships


def test_a_target_named_like_a_plugin_folder_ships_none_by_its_name(tmp_path: Path) -> None:
    (tmp_path / "jinja_plugins" / "tasks").mkdir(parents=True)
    assert not TargetSet(tmp_path)["jinja_plugins"].ships_api_plugins
