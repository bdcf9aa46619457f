"""The ``taskserv:`` section of role meta: read where role meta is read, every mistake at its file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.loader.role import load_role
from runner.models.validation import ParseErrors
from runner.taskservs.catalog import TaskservCatalog
from tests.unit.taskservs.roles import write_role

FULL = """\
description: A container runtime
version: "1.7.2"
requires: [runc, "os >=1.0, <2", {name: cni, version: "^1.3"}]
optional: cilium
conflicts: [docker, podman]
provides: [container-runtime]
os_support: [debian, "ubuntu>=22.04"]
profiles:
  small: {containerd_max_downloads: 1}
  empty:
health_check:
  port: "{{ containerd_port }}"
  retries: 4
  interval: 1
"""


def read(roles: Path, section: str) -> object:
    write_role(roles, "containerd", section)
    return load_role(roles / "containerd", lambda name: True).meta.taskserv


def test_every_key_of_the_section(tmp_path: Path) -> None:
    meta = read(tmp_path, FULL)
    assert meta.version == "1.7.2" and meta.description == "A container runtime"
    assert [(r.name, r.version) for r in meta.requires] == [("runc", None), ("os", ">=1.0, <2"), ("cni", "^1.3")]
    assert [r.name for r in meta.optional] == ["cilium"]
    assert (meta.conflicts, meta.provides) == (["docker", "podman"], ["container-runtime"])
    assert [str(entry) for entry in meta.os_support] == ["debian", "ubuntu>=22.04"]
    assert meta.profiles == {"small": {"containerd_max_downloads": 1}, "empty": {}}
    check = meta.health_check
    assert (check.kind, check.port, check.retries, check.interval, check.timeout) == (
        "port", "{{ containerd_port }}", 4, 1, 5)
    assert meta.requires[1].allows("1.4") and not meta.requires[1].allows("2.0")
    assert meta.requires[2].allows("1.3.7") and not meta.requires[2].allows("2.0.0")


def test_a_requirement_remembers_where_it_was_written(tmp_path: Path) -> None:
    meta = read(tmp_path, FULL)
    path = str(tmp_path / "containerd" / "meta" / "main.yml")
    assert [str(r.position) for r in meta.requires[:2]] == [f"{path}:5:14", f"{path}:5:20"]


def test_a_role_without_the_section_is_a_taskserv_with_nothing_declared(tmp_path: Path) -> None:
    write_role(tmp_path, "plain")
    taskserv = TaskservCatalog([tmp_path], tmp_path).get("plain")
    assert (taskserv.declared, taskserv.version, taskserv.meta.requires, taskserv.meta.health_check) == (
        False, None, [], None)


@pytest.mark.parametrize(("section", "line", "column", "message"), [
    ("version: 1.10", 3, 12, "expected a version written as a string (quote it: YAML reads 1.10 as the number "
                             "1.1), got 1.1"),
    ("version: 'one'", 3, 12, "expected a version such as '1.7.2', got 'one'"),
    ("requires: ['runc >>1']", 3, 14, "'>>1' is not a version constraint"),
    ("requires: ['9lives']", 3, 13, "expected a taskserv name with an optional constraint"),
    ("conflicts: ['no spaces']", 3, 15, "expected a taskserv name of letters, digits, '_' and '-'"),
    ("health_check: {port: 80, command: 'true'}", 3, 17, "a health check needs exactly one of 'port', 'url' or "
                                                         "'command' (got 'port', 'command')"),
    ("health_check: {retries: 3}", 3, 17, "a health check needs exactly one of 'port', 'url' or 'command'"),
    ("health_check: {command: 'true', host: x}", 3, 35, "'host' goes with 'port' only"),
    ("health_check: {url: 'http://x/', status: 99}", 3, 44, "expected an HTTP status code or a list of them"),
    ("health_check: {command: 'true', retries: -1}", 3, 44, "expected a whole number, 0 or more, got -1"),
    ("requirez: [runc]", 3, 3, "'requirez' is not a valid taskserv keyword"),
])
def test_mistakes_are_reported_at_their_place(tmp_path: Path, section: str, line: int, column: int,
                                              message: str) -> None:
    with pytest.raises(ParseError) as caught:
        read(tmp_path, section)
    error = caught.value
    path = tmp_path / "containerd" / "meta" / "main.yml"
    assert str(error.position) == f"{path}:{line}:{column}"
    assert message in error.message


def test_a_misspelt_key_gets_a_did_you_mean(tmp_path: Path) -> None:
    with pytest.raises(ParseError) as caught:
        read(tmp_path, "requirez: [runc]")
    assert caught.value.hint == "did you mean 'requires'?"


def test_every_mistake_of_the_section_at_once(tmp_path: Path) -> None:
    with pytest.raises(ParseErrors) as caught:
        read(tmp_path, "version: 2\nrequires: ['a>>']\nhealth_check: {}")
    assert [error.position.line for error in caught.value.errors] == [3, 4, 5]
