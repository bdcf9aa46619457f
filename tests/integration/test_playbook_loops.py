"""Loops on a real host: loop with loop_control, and every with_<lookup> form (tests/data/playbooks/loops.yml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir, host_file
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts


@pytest.fixture(scope="module")
def base() -> str:
    return fresh_dir("loops")


@pytest.fixture(scope="module")
def run(inventory_path: Path, base: str) -> PlaybookRun:
    return run_playbook(inventory_path, "loops.yml", "-e", f"base={base}")


def items(run: PlaybookRun, task: str) -> list[object]:
    return [item.get("msg") for item in run.task(task)["host1"]["results"]]


def test_the_run_succeeds(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output
    assert run.stats["host1"]["failures"] == 0


def test_loop_var_and_index_var_reach_the_module(run: PlaybookRun, testenv: TestEnv, base: str) -> None:
    for made in ("alice-0", "bob-1"):
        assert host_file(testenv, "host1", f"{base}/{made}").is_dir()
    results = run.task("loop_var, index_var and label")["host1"]["results"]
    assert [r["user"]["name"] for r in results] == ["alice", "bob"]
    assert all(r["ansible_loop_var"] == "user" and r["changed"] for r in results)


def test_label_is_what_the_output_shows(run: PlaybookRun) -> None:
    assert "changed: [host1] => (item=alice)" in run.output
    assert "changed: [host1] => (item=bob)" in run.output


def test_extended_loop_information(run: PlaybookRun) -> None:
    assert items(run, "extended") == [
        "1/3 rev=2 first=True last=False all=abc",
        "2/3 rev=1 first=False last=False all=abc",
        "3/3 rev=0 first=False last=True all=abc",
    ]


def test_pause_between_items_still_runs_every_item(run: PlaybookRun) -> None:
    assert items(run, "pause") == ["one", "two"]


@pytest.mark.parametrize(("task", "expected"), [
    ("with_items", [1, 2, 3]),
    ("with_dict", ["b=2", "a=1"]),
    ("with_sequence", ["n02", "n04", "n06"]),
    ("with_fileglob", ["alpha.conf", "app.conf", "beta.conf"]),
    ("with_subelements", ["alice:k1", "alice:k2", "bob:k3"]),
    ("with_together", ["a1", "b2"]),
    ("with_nested", ["a1", "a2", "b1", "b2"]),
    ("with_indexed_items", ["0:x", "1:y"]),
    ("with_first_found", ["beta.conf"]),
])
def test_with_lookup_loops(run: PlaybookRun, task: str, expected: list[object]) -> None:
    assert items(run, task) == expected


def test_an_empty_loop_is_skipped(run: PlaybookRun) -> None:
    result = run.task("loop over nothing")["host1"]
    assert result["skipped"] is True and result["results"] == []


def test_when_is_evaluated_per_item(run: PlaybookRun) -> None:
    results = run.task("when per item")["host1"]["results"]
    assert [(r["item"], bool(r.get("skipped"))) for r in results] == [(1, True), (2, False), (3, True), (4, False)]
    assert [r["msg"] for r in results if not r.get("skipped")] == [2, 4]
