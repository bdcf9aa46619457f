"""The module_defaults of the module chosen per host to do a task's work (runner/executor/chosen_module.py), as
ansible-core's service and package actions merge them: only the chosen one's, only for the arguments the task
does not give, templated where the task runs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from runner.executor.chosen_module import with_chosen_module
from runner.executor.keywords import TaskFailure
from runner.module_index import ModuleIndex
from runner.plan import ARGUMENT_TEMPLATES
from runner.templating import Templar

INDEX = ModuleIndex()
CANDIDATES = {
    "systemd": {"name": "{{ unit }}", "enabled": True, "state": "{{ undefined_here }}"},
    "sysvinit": {"name": "sysv-unit"},
}


class Setup:
    """A stand-in for running setup on the host: records its arguments, reports ``facts``."""

    def __init__(self, facts: dict[str, Any]) -> None:
        self.facts = facts
        self.calls: list[dict[str, Any]] = []

    async def __call__(self, arguments: dict[str, Any]) -> dict[str, Any]:
        self.calls.append(arguments)
        return {"ansible_facts": self.facts}


def merged(
    module: str,
    args: dict[str, Any],
    facts_of: dict[str, Any],
    setup: Setup | None = None,
    candidates: dict[str, dict[str, Any]] | None = None,
    variables: dict[str, Any] | None = None,
) -> dict[str, Any]:
    variables = {"unit": "templated-unit", **(variables or {})}
    return asyncio.run(
        with_chosen_module(
            INDEX,
            INDEX.get(module),
            CANDIDATES if candidates is None else candidates,
            args,
            Templar(variables),
            facts_of,
            variables,
            setup or Setup({}),
        )
    )


def test_the_facts_choose_and_the_tasks_own_arguments_win() -> None:
    facts = {"ansible_facts": {"service_mgr": "systemd"}}
    # state is the task's: the default's template (undefined here) is never rendered, as in ansible-core
    assert merged("service", {"state": "started"}, facts) == {
        "name": "templated-unit",
        "enabled": True,
        "state": "started",
    }
    assert merged("service", {"state": "started", "name": "own"}, {"ansible_facts": {"service_mgr": "sysvinit"}}) == {
        "name": "own",
        "state": "started",
    }


def test_use_chooses_before_the_facts() -> None:
    facts = {"ansible_facts": {"service_mgr": "systemd"}}
    assert merged("service", {"use": "sysvinit", "state": "started"}, facts)["name"] == "sysv-unit"
    assert merged("service", {"use": "SysVinit", "state": "started"}, facts)["name"] == "sysv-unit"


def test_a_module_without_defaults_or_not_chosen_adds_nothing() -> None:
    assert merged("service", {"state": "started"}, {"ansible_facts": {"service_mgr": "openrc"}}) == {"state": "started"}


def test_without_the_fact_setup_finds_it_on_the_host() -> None:
    setup = Setup({"ansible_service_mgr": "sysvinit"})
    assert merged("service", {"state": "stopped"}, {}, setup) == {"name": "sysv-unit", "state": "stopped"}
    assert setup.calls == [{"gather_subset": ["!all"], "filter": ["ansible_service_mgr"]}]


def test_package_is_chosen_by_ansible_package_use_then_pkg_mgr() -> None:
    candidates = {
        "apt": {"update_cache": True},
        "dnf": {"enablerepo": "extra"},
        "yum": {ARGUMENT_TEMPLATES: ["{{ yum_defaults }}"]},
    }
    facts = {"ansible_facts": {"pkg_mgr": "apt"}}
    assert merged("package", {"name": ["curl"]}, facts, candidates=candidates) == {
        "name": ["curl"],
        "update_cache": True,
    }
    assert merged(
        "package", {"name": ["curl"]}, facts, candidates=candidates, variables={"ansible_package_use": "dnf"}
    ) == {"name": ["curl"], "use": "dnf", "enablerepo": "extra"}
    # a mapping given as a template: its keys the task gives are dropped after it is rendered
    assert merged(
        "package",
        {"name": ["curl"], "use": "yum"},
        facts,
        candidates=candidates,
        variables={"yum_defaults": {"name": ["other"], "lock_timeout": 5}},
    ) == {"name": ["curl"], "use": "yum", "lock_timeout": 5}


def test_a_variables_choice_is_told_to_the_module_and_one_that_names_no_module_fails() -> None:
    assert merged("package", {"name": ["curl"]}, {}, candidates={}, variables={"ansible_package_use": "dnf"}) == {
        "name": ["curl"],
        "use": "dnf",
    }
    with pytest.raises(TaskFailure, match='Could not find a matching action for the "lola" package manager'):
        merged("package", {"name": ["curl"]}, {}, candidates={}, variables={"ansible_package_use": "lola"})


def test_without_defaults_to_merge_the_host_is_not_asked() -> None:
    setup = Setup({"ansible_pkg_mgr": "apt"})
    assert merged("package", {"name": ["curl"]}, {}, setup, candidates={}) == {"name": ["curl"]}
    assert setup.calls == []
