"""``--report junit:FILE``: one JUnit test case per host and task, for CI systems to show and count.

    <testsuites name="site" tests="3" failures="1" errors="0" time="1.204">
      <testsuite name="site" tests="3" failures="1" errors="0" skipped="1" time="1.204" timestamp=... hostname=...>
        <testcase classname="web servers" name="[web1] nginx : install" time="0.950"><system-out>...</system-out>
        <testcase classname="web servers" name="[web2] nginx : install" time="0.230">
          <failure message="No package matching 'ngnx'" type="failed">{result as JSON}</failure>
        <testcase classname="web servers" name="[web3] nginx : install" time="0.024"><skipped message=.../>

It fits Jenkins' junit-10.xsd. A failure whose task has ``ignore_errors`` passes, as in Ansible's junit callback;
unreachable hosts are failures too (type "unreachable").
"""

from __future__ import annotations

import json
import re
import socket
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from runner.callbacks.base import Callback, HostStats, PlayInfo, TaskInfo
from runner.callbacks.results import failure_message, report_result, status_of
from runner.util.files import atomic_write_text

XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'
# Characters XML 1.0 cannot carry at all (command output may hold any of them).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


@dataclass
class JunitCase:
    classname: str
    name: str
    time: float
    outcome: str  # passed, failed, unreachable or skipped
    message: str
    output: str

    def element(self) -> ET.Element:
        case = ET.Element("testcase", {"classname": xml_text(self.classname), "name": xml_text(self.name),
                                       "time": f"{self.time:.3f}"})
        if self.outcome in ("failed", "unreachable"):
            failure = ET.SubElement(case, "failure", {"message": xml_text(self.message), "type": self.outcome})
            failure.text = xml_text(self.output)
        elif self.outcome == "skipped":
            ET.SubElement(case, "skipped", {"message": xml_text(self.message)})
        else:
            ET.SubElement(case, "system-out").text = xml_text(self.output)
        return case


class JunitReport(Callback):
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.suite_name = "playbook"
        self.started = datetime.now().astimezone()
        self.classname = self.suite_name
        self.cases: list[JunitCase] = []

    def playbook_start(self, path: str, check: bool = False, plays: int = 0) -> None:
        self.suite_name = Path(path).stem or self.suite_name
        self.classname = self.suite_name
        self.started = datetime.now().astimezone()

    def play_start(self, play: PlayInfo, hosts: list[str]) -> None:
        self.classname = play.name.strip() or self.suite_name

    def host_result(self, task: TaskInfo, host: str, result: dict[str, Any]) -> None:
        status = status_of(result)
        if status in ("failed", "unreachable") and result.get("_ignored"):
            status = "ignored"
        recorded = report_result(task, result)
        if status in ("failed", "unreachable"):
            message = failure_message(recorded)
        elif status == "skipped":
            message = str(recorded.get("skip_reason") or recorded.get("skipped_reason") or "skipped")
        else:
            message = ""
        output = json.dumps(recorded, indent=4, sort_keys=True, ensure_ascii=False, default=str)
        self.cases.append(JunitCase(classname=self.classname, name=f"[{host}] {task.title}",
                                   time=float(result.get("_duration") or 0.0), outcome=status,
                                   message=message, output=output))

    def document(self) -> ET.Element:
        failures = sum(case.outcome in ("failed", "unreachable") for case in self.cases)
        skipped = sum(case.outcome == "skipped" for case in self.cases)
        total_time = f"{sum(case.time for case in self.cases):.3f}"
        counts = {"tests": str(len(self.cases)), "failures": str(failures), "errors": "0"}
        root = ET.Element("testsuites", {"name": self.suite_name, **counts, "time": total_time})
        suite = ET.SubElement(root, "testsuite", {
            "name": self.suite_name, **counts, "skipped": str(skipped), "time": total_time,
            "timestamp": self.started.isoformat(timespec="seconds"), "hostname": socket.gethostname()})
        suite.extend(case.element() for case in self.cases)
        return root

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        root = self.document()
        ET.indent(root)
        atomic_write_text(self.path, XML_DECLARATION + ET.tostring(root, encoding="unicode") + "\n", mode=None)
