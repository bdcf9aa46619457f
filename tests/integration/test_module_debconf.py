"""debconf on a test host: answers for a package of the test's own (not installed), read back with
debconf-communicate, then purged from the database."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge

PACKAGE = "provisioning-test"


@pytest.fixture
def purge(host: RemoteHost) -> Iterator[None]:
    yield
    host.shell(f"echo PURGE | DEBIAN_FRONTEND=noninteractive debconf-communicate {PACKAGE} >/dev/null 2>&1")


def held(host: RemoteHost, question: str) -> str:
    # debconf-communicate exits with the answer's status (10: no such question)
    command = f"echo 'GET {PACKAGE}/{question}' | debconf-communicate {PACKAGE} 2>/dev/null || true"
    return host.shell(f"DEBIAN_FRONTEND=noninteractive; export DEBIAN_FRONTEND; {command}").rstrip("\n")


def test_string_answer_set(host: RemoteHost, purge: None) -> None:
    args = {"name": PACKAGE, "question": f"{PACKAGE}/greeting", "vtype": "string", "value": "hello world"}
    first = converge(host, "debconf", args, state=lambda: held(host, "greeting"))
    assert held(host, "greeting") == "0 hello world"
    assert first["diff"] == {"before": {f"{PACKAGE}/greeting": ""},
                             "after": {f"{PACKAGE}/greeting": "hello world"}}
    changed = converge(host, "debconf", dict(args, value="bye"))
    assert changed["previous"] == {f"{PACKAGE}/greeting": "hello world"}


def test_boolean_and_multiselect_compare_as_debconf_does(host: RemoteHost, purge: None) -> None:
    converge(host, "debconf", {"pkg": PACKAGE, "setting": f"{PACKAGE}/enable", "vtype": "boolean",
                               "answer": True})
    assert held(host, "enable") == "0 true"
    converge(host, "debconf", {"name": PACKAGE, "question": f"{PACKAGE}/parts", "vtype": "multiselect",
                               "value": ["b", "a"]})
    again = host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/parts", "vtype": "multiselect",
                                 "value": "a, b"})
    assert again["changed"] is False, again
    unsorted_text = host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/parts", "vtype": "multiselect",
                                         "value": "b, a"})
    assert unsorted_text["changed"] is True, unsorted_text  # text is compared as written, as in Ansible
    listed = host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/parts", "vtype": "multiselect",
                                  "value": ["a", "b"]})
    assert listed["changed"] is False, listed  # a list in any order
    mixed = host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/parts", "vtype": "multiselect",
                                 "value": ["a", 1]})
    assert mixed["failed"] and mixed["msg"].startswith("Invalid value provided for 'multiselect': "), mixed


def test_password_never_shown(host: RemoteHost, purge: None) -> None:
    first = converge(host, "debconf", {"name": PACKAGE, "question": f"{PACKAGE}/secret", "vtype": "password",
                                       "value": "s3cret"})
    assert "s3cret" not in repr(first)


def test_question_needs_vtype_and_value(host: RemoteHost) -> None:
    result = host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/greeting"})
    assert result.get("failed") and "required together" in result["msg"], result


def test_package_alone_lists_its_questions(host: RemoteHost, purge: None) -> None:
    host.run("debconf", {"name": PACKAGE, "question": f"{PACKAGE}/greeting", "vtype": "string", "value": "hi"})
    listed = host.run("debconf", {"name": PACKAGE})
    assert listed["changed"] is False and listed["current"] == {f"{PACKAGE}/greeting": "hi"}, listed
    tzdata = host.run("debconf", {"name": "tzdata"})
    assert tzdata["current"]["tzdata/Zones/Etc"] == "UTC", tzdata
