"""What a task reports of interpreter discovery (runner/executor/interpreter_discovery.py), in ansible-core 2.21's
words: the warnings of each discovery mode and outcome, auto_legacy's deprecation, the mode a task's variables
name, and the interpreter ``ansible_<name>_interpreter`` gives a module's ``#!`` line."""

from __future__ import annotations

import pytest

from runner.agent import DISCOVERY_ERROR, DISCOVERY_FOUND, DISCOVERY_NONE, FALLBACK_INTERPRETERS
from runner.connection.session import Discovery
from runner.executor.interpreter_discovery import (
    discovery_mode,
    report_discovery,
    shebang_interpreter,
    with_omitted_interpreter,
)
from runner.templating import OMIT, Templar
from runner.templating.deprecations import collecting

FOUND = Discovery("/usr/bin/python3.11", DISCOVERY_FOUND, FALLBACK_INTERPRETERS)
USING = (
    "Host 'web1' is using the discovered Python interpreter at '{}', but future installation of another "
    "Python interpreter could cause a different interpreter to be discovered."
)


def test_auto_warns_of_the_discovered_interpreter_with_a_link_on_the_display() -> None:
    report = report_discovery(FOUND, "auto", "web1")
    assert report.warnings == [USING.format("/usr/bin/python3.11")]
    assert report.shown[report.warnings[0]].endswith(
        " See https://docs.ansible.com/ansible-core/2.21/reference_appendices/interpreter_discovery.html for more "
        "information."
    )


def test_none_found_warns_of_the_names_tried_only() -> None:
    report = report_discovery(
        Discovery("/usr/bin/python3", DISCOVERY_NONE, ("/usr/bin/does_not_exist",)), "auto", "web1"
    )
    assert report.warnings == ["No python interpreters found for host 'web1' (tried ['/usr/bin/does_not_exist'])."]


def test_a_failed_probe_warns_of_the_error_then_of_the_fallback_interpreter() -> None:
    report = report_discovery(Discovery("/usr/bin/python3", DISCOVERY_ERROR, ("'q",)), "auto", "web1")
    assert report.warnings == [
        "Unhandled error in Python interpreter discovery for host 'web1': unexpected output from Python "
        "interpreter discovery",
        USING.format("/usr/bin/python3"),
    ]
    assert "<<< caused by >>>" in report.shown[report.warnings[0]]


@pytest.mark.parametrize("outcome", [DISCOVERY_FOUND, DISCOVERY_NONE, DISCOVERY_ERROR])
@pytest.mark.parametrize("mode", ["auto_silent", "auto_legacy_silent"])
def test_silent_modes_never_warn(mode: str, outcome: str) -> None:
    with collecting():
        assert report_discovery(Discovery("/usr/bin/python3", outcome, ("x",)), mode, "web1").warnings == []


@pytest.mark.parametrize("mode", ["auto_legacy", "auto_legacy_silent"])
def test_auto_legacy_is_deprecated_and_discovers_as_auto(mode: str) -> None:
    with collecting() as deprecations:
        report = report_discovery(FOUND, mode, "web1")
    assert [entry["msg"] for entry in deprecations] == [
        f"The '{mode}' option for 'INTERPRETER_PYTHON' now has the same effect as 'auto'."
    ]
    assert deprecations[0]["version"] == "2.21"
    assert len(report.warnings) == (0 if mode.endswith("_silent") else 1)


def test_the_mode_is_the_tasks_rendered_variable_else_the_configurations() -> None:
    variables = {"mode": "auto_silent", "ansible_python_interpreter": "{{ mode }}"}
    assert discovery_mode(variables, Templar(variables), "auto") == "auto_silent"
    assert discovery_mode({}, None, "auto_legacy_silent") == "auto_legacy_silent"
    assert discovery_mode({"ansible_python_interpreter": ""}, None, "auto_silent") == "auto"
    assert discovery_mode({"ansible_python_interpreter": OMIT}, None, "auto_silent") == "auto"


def test_an_omitted_interpreter_variable_is_auto_not_the_configurations_value() -> None:
    assert with_omitted_interpreter({"ansible_python_interpreter": OMIT, "ansible_port": 22}) == {
        "ansible_python_interpreter": "auto",
        "ansible_port": 22,
    }
    kept = {"ansible_port": 22}
    assert with_omitted_interpreter(kept) is kept


def test_a_modules_interpreter_line_takes_the_tasks_interpreter_variable_of_its_name() -> None:
    source = b"#!actually_python\nprint(1)\n"
    variables = {"py": "/usr/bin/python3.11", "ansible_actually_python_interpreter": "{{ py }}"}
    assert shebang_interpreter(source, variables, Templar(variables)) == "/usr/bin/python3.11"
    assert shebang_interpreter(source, {}, None) is None
    assert shebang_interpreter(source, {"ansible_actually_python_interpreter": OMIT}, None) is None
    # python's interpreter is the agent's, chosen by ansible_python_interpreter and discovery
    assert shebang_interpreter(b"#!/usr/bin/python\n", {"ansible_python_interpreter": "/x"}, None) is None
