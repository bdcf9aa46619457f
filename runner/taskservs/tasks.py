"""The tasks one taskserv runs on a host, written as a playbook would write them (then read by the models).

A taskserv is one block: a check that the host's system is one it supports, its role, and its health check
(after the role's handlers have run, so a restarted daemon is what gets checked). Its settings (the profile's
variables, then those the infra gives it) are the role's parameters; the block's variables are the same, plus
``taskserv_name``, ``taskserv_profile`` and ``taskserv_version``.
"""

from __future__ import annotations

from typing import Any

from packaging.specifiers import SpecifierSet

from runner.errors import ParseError, SourcePosition
from runner.models.base import POSITION_KEY
from runner.models.taskserv import HealthCheck, Requirement
from runner.taskservs.catalog import Taskserv

HEALTH_RESULT = "taskserv_health"
# A PEP 440 operator → the operator of the Jinja2 ``version`` test.
_VERSION_TESTS = {">=": "ge", ">": "gt", "<=": "le", "<": "lt", "==": "eq", "!=": "ne"}
DEFAULT_PROFILE = "default"


def taskserv_block(taskserv: Taskserv, *, profile: str = DEFAULT_PROFILE, variables: dict[str, Any] | None = None,
                   when: list[str] | None = None, delete: bool = False,
                   position: SourcePosition | None = None) -> dict[str, Any]:
    """The block that installs (or, with ``delete``, removes) ``taskserv`` on the hosts of a play."""
    tasks: list[dict[str, Any]] = []
    if taskserv.meta.os_support and not delete:
        tasks.append(os_support_task(taskserv))
    role: dict[str, Any] = {"name": taskserv.name}
    if delete:
        role["tasks_from"] = "delete"
    settings = {**profile_vars(taskserv, profile, position), **(variables or {})}
    if profile != DEFAULT_PROFILE:
        settings = {"taskserv_profile": profile, **settings}
    # The settings are role parameters (as 'roles: - {role: x, ...}' gives them), so a role given other settings
    # on other hosts of a play is expanded once per settings; the block has them too, for the health check.
    role_task: dict[str, Any] = {"import_role": role, POSITION_KEY: position}
    if settings:
        role_task["vars"] = settings
    tasks.append(role_task)
    if taskserv.meta.health_check is not None and not delete:
        tasks += health_check_tasks(taskserv.name, taskserv.meta.health_check)
    identity = {"taskserv_name": taskserv.name, "taskserv_profile": profile}
    if taskserv.version is not None:
        identity["taskserv_version"] = taskserv.version
    block: dict[str, Any] = {
        "name": f"taskserv {taskserv.name}",
        "block": tasks,
        "vars": {**identity, **settings},
        "tags": [taskserv.name],
        POSITION_KEY: position,
    }
    if when:
        block["when"] = when
    return block


def profile_vars(taskserv: Taskserv, profile: str, position: SourcePosition | None) -> dict[str, Any]:
    """The variables of one of the taskserv's profiles (none for 'default' unless it declares one)."""
    profiles = taskserv.meta.profiles
    if profile != DEFAULT_PROFILE and profile not in profiles:
        known = ", ".join(sorted(profiles)) or "none"
        raise ParseError(f"taskserv '{taskserv.name}' has no profile '{profile}' (its profiles: {known})", position)
    return dict(profiles.get(profile, {}))


def health_check_tasks(name: str, check: HealthCheck) -> list[dict[str, Any]]:
    """Handlers first, then the check, tried again until it passes. Skipped in check mode: nothing was
    installed, so there is nothing to probe."""
    timeout = check.timeout
    action: dict[str, Any]
    if check.port is not None:
        kind = "port"
        action = {"wait_for": {"host": check.host or "{{ ansible_host | default(inventory_hostname) }}",
                               "port": check.port, "timeout": timeout}}
    elif check.url is not None:
        kind = "url"
        action = {"uri": {"url": check.url, "status_code": check.status, "timeout": timeout}}
    else:
        kind = "command"
        action = {"shell": check.command}
    return [
        {"meta": "flush_handlers", POSITION_KEY: check.position},
        {"name": f"{name} : health check ({kind})", **action, "register": HEALTH_RESULT,
         "until": f"{HEALTH_RESULT} is succeeded", "retries": check.retries, "delay": check.interval,
         "changed_when": False, "when": "not ansible_check_mode", POSITION_KEY: check.position},
    ]


def os_support_task(taskserv: Taskserv) -> dict[str, Any]:
    """Fail early, with the list of supported systems, on a host whose system the taskserv does not support."""
    entries = taskserv.meta.os_support
    supported = ", ".join(str(entry) for entry in entries)
    return {
        "name": f"{taskserv.name} : supported system",
        "assert": {
            "that": [" or ".join(f"({_system_condition(entry)})" for entry in entries)],
            "fail_msg": f"taskserv {taskserv.name} supports {supported}; this host runs "
                        "{{ ansible_distribution }} {{ ansible_distribution_version }}",
            "quiet": True,
        },
        POSITION_KEY: entries[0].position,
    }


def _system_condition(entry: Requirement) -> str:
    name = entry.name.lower()
    if entry.version is None:
        return f"'{name}' in [ansible_distribution | lower, ansible_os_family | lower]"
    terms = [f"(ansible_distribution | lower) == '{name}'"]
    for specifier in SpecifierSet(entry.version):
        test = _VERSION_TESTS.get(specifier.operator)
        if test is None or "*" in specifier.version:
            raise ParseError(f"'{entry}': a system's version takes >=, >, <=, <, == or != without '*'",
                             entry.position)
        terms.append(f"ansible_distribution_version is version('{specifier.version}', '{test}')")
    return " and ".join(terms)
