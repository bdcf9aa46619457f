"""JSON and JUnit reports: the documents a sample run produces, read back as CI tools read them."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from junitparser import Failure, JUnitXml, Skipped

from runner.callbacks import make_callbacks
from runner.callbacks.base import Callback, Callbacks, HostStats, PlayInfo, TaskInfo
from runner.callbacks.json_report import JsonReport
from runner.callbacks.junit_report import JunitReport
from runner.callbacks.results import NO_LOG_MESSAGE
from runner.errors import UserError
from runner.util.files import atomic_write_text

INSTALL = TaskInfo(name="install nginx", module="apt", position="roles/nginx/tasks/main.yml:3:3", role="nginx")
CONFIGURE = TaskInfo(name="configure", module="template", position="site.yml:9:7")
PACKAGES = TaskInfo(name="packages", module="apt", position="site.yml:12:7")
SECRET = TaskInfo(name="set password", module="user", position="site.yml:15:7", no_log=True)
PING = TaskInfo(name="ping", module="ping", position="site.yml:20:7")
STATS = {"web1": HostStats(ok=4, changed=3), "web2": HostStats(failed=1, ignored=1),
         "web3": HostStats(unreachable=1)}


def sample_run(*callbacks: Callback) -> None:
    """Two plays: every kind of result, a loop, a no_log task and a play without a name."""
    events = Callbacks(list(callbacks))
    events.playbook_start("/srv/play/site.yml")
    events.play_start(PlayInfo("web servers", "web", "site.yml:1:3"), ["web1", "web2", "web3"])
    events.task_start(INSTALL, ["web1", "web2", "web3"])
    events.host_result(INSTALL, "web1", {"changed": True, "_status": "changed", "_duration": 0.5,
                                         "diff": {"before": "", "after": "x\n"}})
    events.host_result(INSTALL, "web2", {"failed": True, "changed": False, "msg": "No package matching 'ngnx'",
                                         "_status": "failed", "_duration": 0.25})
    events.host_result(INSTALL, "web3", {"unreachable": True, "changed": False, "msg": "ssh: connection refused",
                                         "_status": "unreachable", "_duration": 1.0})
    events.task_start(CONFIGURE, ["web1", "web2"])
    events.host_result(CONFIGURE, "web1", {"skipped": True, "changed": False, "_status": "skipped",
                                           "skip_reason": "Conditional result was False"})
    events.host_result(CONFIGURE, "web2", {"failed": True, "changed": False, "rc": 3, "_status": "failed",
                                           "_ignored": True, "_duration": 0.125})
    events.task_start(PACKAGES, ["web1"])
    events.host_result(PACKAGES, "web1", {"changed": True, "msg": "All items completed", "_status": "changed",
                                          "results": [{"item": "curl", "changed": True, "_status": "changed",
                                                       "_label": "curl"}]})
    events.task_start(SECRET, ["web1"])
    events.host_result(SECRET, "web1", {"changed": True, "password": "hunter2", "_status": "changed"})
    events.play_start(PlayInfo("", "db", "site.yml:18:3"), ["web1"])
    events.task_start(PING, ["web1"])
    events.host_result(PING, "web1", {"changed": False, "ping": "pong", "_status": "ok", "_duration": 0.0625})
    events.playbook_end(STATS, 4)


# -- JSON ---------------------------------------------------------------------------------------------------
def test_json_report_has_ansible_json_callback_shape(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    sample_run(JsonReport(path))
    document = json.loads(path.read_text())
    assert sorted(document) == ["custom_stats", "global_custom_stats", "plays", "stats"]
    first, second = document["plays"]
    assert first["play"]["name"] == "web servers" and first["play"]["path"] == "site.yml:1:3"
    assert {"start", "end"} <= set(first["play"]["duration"])
    assert [t["task"]["name"] for t in first["tasks"]] == ["nginx : install nginx", "configure", "packages",
                                                           "set password"]
    install = first["tasks"][0]
    assert install["task"]["path"] == "roles/nginx/tasks/main.yml:3:3"
    assert install["hosts"]["web1"] == {"action": "apt", "changed": True, "diff": {"before": "", "after": "x\n"}}
    assert install["hosts"]["web2"]["failed"] is True
    assert install["hosts"]["web3"]["unreachable"] is True
    assert first["tasks"][2]["hosts"]["web1"]["results"] == [{"item": "curl", "changed": True}]
    assert second["play"]["name"] == "" and second["tasks"][0]["hosts"]["web1"]["ping"] == "pong"
    assert document["stats"]["web2"] == {"ok": 0, "changed": 0, "unreachable": 0, "failures": 1, "skipped": 0,
                                         "rescued": 0, "ignored": 1}


def test_json_report_keeps_no_internal_keys_and_censors_no_log(tmp_path: Path) -> None:
    path = tmp_path / "report.json"
    sample_run(JsonReport(path))
    text = path.read_text()
    assert '"_' not in text and "hunter2" not in text
    secret = json.loads(text)["plays"][0]["tasks"][3]["hosts"]["web1"]
    assert secret == {"action": "user", "censored": NO_LOG_MESSAGE, "changed": True}


def test_json_stdout_callback_prints_the_document(capsys: pytest.CaptureFixture[str]) -> None:
    sample_run(*make_callbacks("json", [], 0, False, True).callbacks)
    assert json.loads(capsys.readouterr().out)["stats"]["web1"]["changed"] == 3


# -- JUnit --------------------------------------------------------------------------------------------------
def test_junit_counts_and_cases_read_by_junitparser(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    sample_run(JunitReport(path))
    suites = list(JUnitXml.fromfile(str(path)))
    assert len(suites) == 1
    suite = suites[0]
    assert (suite.name, suite.tests, suite.failures, suite.errors, suite.skipped) == ("site", 8, 2, 0, 1)
    assert suite.time == pytest.approx(0.5 + 0.25 + 1.0 + 0.125 + 0.0625, abs=1e-3)
    cases = {case.name: case for case in suite}
    assert list(cases) == ["[web1] nginx : install nginx", "[web2] nginx : install nginx",
                           "[web3] nginx : install nginx", "[web1] configure", "[web2] configure", "[web1] packages",
                           "[web1] set password", "[web1] ping"]
    assert cases["[web1] nginx : install nginx"].classname == "web servers"
    assert cases["[web1] ping"].classname == "site"  # an unnamed play is named for its playbook
    assert cases["[web1] nginx : install nginx"].time == pytest.approx(0.5)
    assert cases["[web1] nginx : install nginx"].is_passed
    failure = cases["[web2] nginx : install nginx"].result[0]
    assert isinstance(failure, Failure)
    assert (failure.message, failure.type) == ("No package matching 'ngnx'", "failed")
    assert json.loads(failure.text)["msg"] == "No package matching 'ngnx'"
    unreachable = cases["[web3] nginx : install nginx"].result[0]
    assert (unreachable.message, unreachable.type) == ("ssh: connection refused", "unreachable")
    skipped = cases["[web1] configure"].result[0]
    assert isinstance(skipped, Skipped) and skipped.message == "Conditional result was False"
    assert cases["[web2] configure"].is_passed  # ignore_errors: passes, as in Ansible's junit callback
    assert "hunter2" not in path.read_text()


SUREFIRE_TIME = re.compile(r"(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?")
# Jenkins' junit-10.xsd: the attributes each element may carry, those it must, and its children.
XSD = {
    "testsuites": ({"name", "time", "tests", "failures", "errors"}, set(), {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors", "group", "time", "skipped", "timestamp", "hostname", "id",
                   "package", "file", "log", "url"}, {"name", "tests", "failures", "errors"},
                  {"testsuite", "properties", "testcase", "system-out", "system-err"}),
    "testcase": ({"name", "time", "classname", "group"}, {"name"},
                 {"skipped", "error", "failure", "system-out", "system-err"}),
    "failure": ({"type", "message"}, set(), set()),
    "skipped": ({"type", "message"}, set(), set()),
    "system-out": (set(), set(), set()),
}


def check_against_xsd(element: ET.Element) -> None:
    allowed, required, children = XSD[element.tag]
    assert set(element.attrib) <= allowed, element.tag
    assert required <= set(element.attrib), element.tag
    if "time" in element.attrib and element.tag in ("testsuites", "testsuite"):
        assert SUREFIRE_TIME.fullmatch(element.attrib["time"])
    for child in element:
        assert child.tag in children, f"{child.tag} in {element.tag}"
        check_against_xsd(child)


def test_junit_fits_the_jenkins_schema_and_totals_add_up(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    sample_run(JunitReport(path))
    assert path.read_text().startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites')
    root = ET.parse(path).getroot()
    check_against_xsd(root)
    suite = root.find("testsuite")
    assert suite is not None
    cases = suite.findall("testcase")
    assert int(suite.get("tests", "")) == len(cases) == int(root.get("tests", ""))
    assert int(suite.get("failures", "")) == len(suite.findall("testcase/failure")) == 2
    assert int(suite.get("skipped", "")) == len(suite.findall("testcase/skipped")) == 1


def test_junit_survives_control_characters_in_output(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    report = JunitReport(path)
    report.host_result(PING, "web1", {"failed": True, "msg": "bad \x1b[31mbyte\x00", "_status": "failed"})
    report.playbook_end({}, 2)
    failure = ET.parse(path).getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("message") == "bad \ufffd[31mbyte\ufffd"


def test_failed_loop_names_the_failing_items(tmp_path: Path) -> None:
    path = tmp_path / "junit.xml"
    report = JunitReport(path)
    report.host_result(PACKAGES, "web1", {"failed": True, "msg": "One or more items failed", "_status": "failed",
                                          "results": [{"item": "a", "_status": "ok"},
                                                      {"item": "b", "failed": True, "msg": "no such package b"}]})
    report.playbook_end({}, 2)
    failure = ET.parse(path).getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("message") == "no such package b"


# -- writing ------------------------------------------------------------------------------------------------
def test_reports_replace_the_file_and_leave_no_temporary(tmp_path: Path) -> None:
    json_path, junit_path = tmp_path / "out" / "run.json", tmp_path / "out" / "run.xml"
    junit_path.parent.mkdir()
    junit_path.write_text("old")
    sample_run(*make_callbacks("minimal", [f"json:{json_path}", f"junit:{junit_path}"], 0, False, True).callbacks)
    assert sorted(p.name for p in json_path.parent.iterdir()) == ["run.json", "run.xml"]
    assert ET.parse(junit_path).getroot().tag == "testsuites"
    assert oct(json_path.stat().st_mode & 0o777) != oct(0o600)  # an ordinary file, not mkstemp's private one


def test_failed_write_is_a_user_error_and_cleans_up(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(UserError, match="cannot write"):
        atomic_write_text(tmp_path / "taken", "data")
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot write"):
        atomic_write_text(tmp_path / "file" / "report.json", "data")


def test_write_atomically_writes_utf8(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    atomic_write_text(target, '{"name": "café"}')
    assert target.read_bytes() == '{"name": "café"}'.encode()
