"""JSON and JUnit reports of one run with every outcome (reports.yml), on the test hosts plus one unreachable
host; the JUnit file is read as a CI system reads it (junitparser) and as plain XML."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml, Skipped

from tests.integration.playbook_run import inventory_with_unreachable_host
from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.hosts
TASKS = ["ok everywhere", "changed everywhere", "skipped on host1", "failure ignored", "host3 fails"]


@pytest.fixture(scope="module")
def reports(inventory_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, Path, Path]]:
    directory = tmp_path_factory.mktemp("reports")
    inventory = inventory_with_unreachable_host(inventory_path, directory)
    junit, json_file = directory / "out" / "results.xml", directory / "out" / "results.json"
    run = run_playbook(inventory, "reports.yml", "--report", f"junit:{junit}", "--report", f"json:{json_file}",
                       subprocess_run=True, report=False)
    yield run.exit_code, junit, json_file


def test_an_unreachable_host_makes_the_exit_code_4(reports: tuple[int, Path, Path]) -> None:
    assert reports[0] == 4


def test_junit_has_one_case_per_host_and_task(reports: tuple[int, Path, Path]) -> None:
    suites = JUnitXml.fromfile(str(reports[1]))
    cases = {case.name: case for suite in suites for case in suite}
    expected = {f"[{host}] {task}" for host in ("host1", "host2", "host3") for task in TASKS} | {
        "[ghost] ok everywhere"}  # an unreachable host leaves the play
    assert set(cases) == expected
    assert all(case.classname == "reports" for case in cases.values())

    def outcome(name: str) -> str:
        results = cases[name].result
        if not results:
            return "passed"
        return type(results[0]).__name__ + ":" + (results[0].type or "")

    assert outcome("[host1] ok everywhere") == "passed"
    assert outcome("[host1] changed everywhere") == "passed"
    assert outcome("[host1] skipped on host1") == "Skipped:"
    assert outcome("[host2] failure ignored") == "passed"  # ignore_errors passes, as in Ansible's junit callback
    assert outcome("[host3] host3 fails") == "Failure:failed"
    assert outcome("[ghost] ok everywhere") == "Failure:unreachable"
    failure = cases["[host3] host3 fails"].result[0]
    assert isinstance(failure, Failure) and failure.message == "host3 is broken"
    assert isinstance(cases["[host1] skipped on host1"].result[0], Skipped)


def test_junit_counts_agree_with_its_cases(reports: tuple[int, Path, Path]) -> None:
    root = ET.parse(reports[1]).getroot()
    assert root.tag == "testsuites"
    suite = root.find("testsuite")
    assert suite is not None and suite.get("name") == "reports"
    cases = suite.findall("testcase")
    assert int(suite.get("tests", -1)) == len(cases) == 16
    assert int(suite.get("failures", -1)) == sum(1 for c in cases if c.find("failure") is not None) == 2
    assert int(suite.get("skipped", -1)) == sum(1 for c in cases if c.find("skipped") is not None)
    assert all(float(case.get("time", -1)) >= 0 for case in cases)


def test_json_report_has_every_result_and_the_recap(reports: tuple[int, Path, Path]) -> None:
    data = json.loads(reports[2].read_text())
    tasks = data["plays"][0]["tasks"]
    assert [task["task"]["name"] for task in tasks] == TASKS
    assert tasks[0]["hosts"]["ghost"]["unreachable"] is True
    assert tasks[4]["hosts"]["host3"]["msg"] == "host3 is broken"
    assert data["stats"]["host3"]["failures"] == 1 and data["stats"]["host1"]["ignored"] == 1
    assert data["stats"]["ghost"]["unreachable"] == 1
    assert data["stats"]["host1"]["changed"] == 1 and data["stats"]["host1"]["skipped"] == 2
    assert not any(key.startswith("_") for task in tasks for result in task["hosts"].values() for key in result)


def test_the_report_files_are_the_only_files_written(reports: tuple[int, Path, Path]) -> None:
    assert sorted(p.name for p in reports[1].parent.iterdir()) == ["results.json", "results.xml"]
