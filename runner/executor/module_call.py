"""Running one module on one host: through its controller-side action when the module declares one, else
through the host's agent; within a task's timeout and its async limit, or as a background job. Shared by
ad-hoc commands and playbook tasks."""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from runner.actions.arguments import MISTAKE
from runner.actions.run_state import DetachedRunState, RunState
from runner.callbacks.results import ASYNC_POLLS, WARNINGS_SHOWN
from runner.connection import BecomeSettings, HostSession
from runner.connection.agent_client import InterpreterNotFound
from runner.connection.ansible_connection import ConnectionPluginError
from runner.connection.become import BecomeFailure
from runner.errors import ConnectionFailure, UserError
from runner.executor.interpreter_discovery import (
    DISCOVERED_PYTHON,
    discovery_mode,
    report_discovery,
    shebang_interpreter,
)
from runner.module_index import ModuleIndex
from runner.templating.filters.core import to_bool
from runner.templating.omit import OMIT
from runner.util.async_jobs import finished_job, timed_out_job
from runner.util.masking import NO_LOG_ARGUMENT, mask_secrets
from runner.vars.magic import namespaced_facts

if TYPE_CHECKING:
    from runner.actions import Action
    from runner.templating import Templar


@dataclass
class ModuleCall:
    """What one task asks of one host, after templating."""

    module: str
    args: dict[str, Any]
    host: str | None = None  # the task's host; the session's when None
    # Where facts and an action's changes to the run go: a call outside a playbook run keeps nothing.
    state: RunState = field(default_factory=DetachedRunState)
    templar: Templar | None = None  # over the task's variables; one over task_vars when None
    check: bool = False
    diff: bool = False
    verbosity: int = 0
    become: BecomeSettings | None = None
    environment: dict[str, Any] | None = None
    search_paths: list[Path] = field(default_factory=list)
    task_vars: Mapping[str, Any] = field(default_factory=dict)
    collections: list[str] = field(default_factory=list)  # the task's collection search list
    background: int | None = None  # async with poll 0: start a job of at most this many seconds, do not wait
    # async (waited for): the result carries what a module printed on stderr, as Ansible's async wrapper adds it
    in_async_job: bool = False
    async_limit: int | None = None  # that job's limit in seconds, which an action plugin reads (async_val)
    async_dir: str | None = None  # where the host keeps async jobs' state (ansible_async_dir); the default if None
    remote_tmp: str | None = None  # where the module's temporary directory goes (ansible_remote_tmp); the session's
    rlimit_nofile: int | None = None  # the module's soft limit of open files (ansible_python_module_rlimit_nofile)
    debugger: dict[str, Any] | None = None  # a remote debugger the module attaches to (runner.executor.module_debugger)
    facts_owner: str | None = None  # whose facts the module reports (delegate_facts); the task's host if None
    no_log: bool = False  # told to a module written against Ansible's API, which masks its own output
    # How a mistake's message names the task (``task 'x' at site.yml:3:7``): a playbook's task; None ad hoc.
    task: str | None = None


def controller_action(index: ModuleIndex, module: str) -> Action | None:
    """The controller-side action that does ``module``'s work, or None when its host's agent runs it."""
    info = index.get(module)
    if info.action_plugin is not None:  # a collection's action plugin, built on ansible-core's ActionBase
        from runner.actions.ansible_action import ANSIBLE_ACTION

        return ANSIBLE_ACTION
    if not info.action:
        return None
    from runner.actions import action_for

    return action_for(info.action, info.name)


async def execute(session: HostSession | None, index: ModuleIndex, call: ModuleCall) -> dict[str, Any]:
    """The module's result; an unreachable host gives ``unreachable: True`` instead of raising. ``session`` may
    be None only for an action that does not use the host."""
    host = call.host or (session.settings.name if session is not None else "localhost")
    try:
        info = index.get(call.module)
        with_async_dir(index, call)
        action = controller_action(index, call.module)
        if action is not None and action.uses_host and call.background is not None:
            return {"failed": True, "changed": False,
                    "msg": f"'{call.module}' runs partly on the controller and cannot be started in the background "
                           "(async with poll: 0); give it a poll interval to wait for it"}
        if action is not None:
            from runner.actions import ActionContext, run_action
            from runner.templating import Templar

            templar = call.templar if call.templar is not None else Templar(call.task_vars)
            context = ActionContext(host=host, module=info, args=call.args, state=call.state,
                                    templar=templar, connection=session, check=call.check, diff=call.diff,
                                    verbosity=call.verbosity, become=call.become, environment=call.environment,
                                    no_log=call.no_log, search_paths=call.search_paths, task_vars=call.task_vars,
                                    collections=call.collections, async_seconds=call.async_limit or 0,
                                    remote_tmp=call.remote_tmp)
            result = await run_action(action, context)
            if templar.untrusted_templates:  # untrusted_template_behavior = warning
                from runner.templating import UNTRUSTED_TEMPLATE_MESSAGE

                result.setdefault("warnings", []).append(UNTRUSTED_TEMPLATE_MESSAGE)
        else:
            assert session is not None, "a module run by the agent needs the host's session"
            legacy_interpreter = (shebang_interpreter(info.source.source, call.task_vars, call.templar)
                                  if info.legacy_style and info.source is not None else None)
            result = await session.run_module(index.resolved_name(call.module, info), call.args, check=call.check,
                                              diff=call.diff,
                                              become=call.become, environment=call.environment,
                                              background=call.background, async_dir=call.async_dir,
                                              rlimit_nofile=call.rlimit_nofile, no_log=call.no_log,
                                              verbosity=call.verbosity, async_job=call.in_async_job,
                                              debugger=call.debugger, legacy_interpreter=legacy_interpreter,
                                              remote_tmp=call.remote_tmp)
            result = with_discovered_interpreter(result, session, call, host)
    except ConnectionFailure as exc:
        return {"unreachable": True, "changed": False, "msg": str(exc)}
    except ConnectionPluginError as exc:  # a connection plugin that cannot be made: the task fails, as in Ansible
        return {"failed": True, "changed": False, "msg": str(exc)}
    except BecomeFailure as exc:
        return {"failed": True, "changed": False, "msg": str(exc)}
    except InterpreterNotFound as exc:
        return {"failed": True, "changed": False, "rc": 127, "msg": str(exc)}
    except UserError as exc:
        # A mistake (a missing file, a bad value, a failing lookup), not a failure the module or action reports
        # as its result (fail, assert): the message says which task, as the run's other mistakes do.
        where = f" ({call.task})" if call.task else ""
        return {"failed": True, "changed": False, "msg": f"{exc.message}{where}"}
    if result.pop(MISTAKE, False) and call.task:
        result["msg"] = f"{result.get('msg')} ({call.task})"
    result = mask_secrets(result, no_log_values(index, call))
    facts = result.get("ansible_facts")
    if action is None and isinstance(facts, Mapping) and not result.get("failed"):
        # What a module run on the host reports as facts is the host's; an action reports its own changes
        # through the run state (set_fact's ansible_facts are variables, not facts).
        kept = namespaced_facts(facts)
        # Facts reported under their own names (getent_passwd) are variables by those names too, as Ansible
        # injects them (setup's are not); prefixed ones (ansible_hostname) already are, through the fact aliases.
        own_names = {key: value for key, value in kept.items() if key in facts}
        if len(own_names) < len(kept):
            call.state.set_facts(call.facts_owner or host, {key: value for key, value in kept.items()
                                                            if key not in own_names})
        call.state.set_facts(call.facts_owner or host, own_names, named=info.name != "setup")
    return result


# Facts only the runner sets, never a module (Ansible drops them from a module's facts as well)
_INTERPRETER_FACT = re.compile(r"(ansible_)?discovered_interpreter_.*|ansible_.*_interpreter")


def with_discovered_interpreter(result: dict[str, Any], session: HostSession, call: ModuleCall,
                                host: str) -> dict[str, Any]:
    """``result`` of a module the agent ran, with Ansible's ``discovered_interpreter_python`` fact when the
    host's Python was discovered (no ansible_python_interpreter path) and its facts do not hold it yet: as in
    Ansible, the first module after a start or a ``meta: clear_facts`` reports it, with the warnings of the
    task's discovery mode (runner.executor.interpreter_discovery). A task delegated without ``delegate_facts``
    reports none (the facts would be another host's)."""
    facts = result.get("ansible_facts")
    if isinstance(facts, dict):
        result["ansible_facts"] = facts = {key: value for key, value in facts.items()
                                           if not _INTERPRETER_FACT.fullmatch(key)}
    if session.settings.name != (call.facts_owner or host):
        return result
    known = call.task_vars.get("ansible_facts")
    if isinstance(known, Mapping) and DISCOVERED_PYTHON in known:
        return result
    discovery = session.discovery(call.become)
    if discovery is None:
        return result
    result["ansible_facts"] = {**(facts if isinstance(facts, dict) else {}), DISCOVERED_PYTHON: discovery.interpreter}
    mode = discovery_mode(call.task_vars, call.templar, session.settings.interpreter_mode)
    report = report_discovery(discovery, mode, str(call.task_vars.get("inventory_hostname") or host))
    if report.warnings:
        result["warnings"] = [*report.warnings, *(result.get("warnings") or ())]
        result[WARNINGS_SHOWN] = {**(result.get(WARNINGS_SHOWN) or {}), **report.shown}
    return result


def user_removed_by(index: ModuleIndex, call: ModuleCall) -> str | None:
    """The account a ``user: state=absent`` call removes, else None."""
    if index.canonical(call.module) != "user" or call.args.get("state") != "absent":
        return None
    name = call.args.get("name") or call.args.get("user")
    return str(name) if name else None


DEFAULT_POLL_INTERVAL = 15  # seconds, Ansible's default for poll
ASYNC_DIR_VARIABLE = "ansible_async_dir"  # where async jobs keep their state, as Ansible names the setting
RLIMIT_NOFILE_VARIABLE = "ansible_python_module_rlimit_nofile"
INJECT_INVOCATION_VARIABLE = "ansible_inject_invocation"


def with_invocation(result: dict[str, Any], index: ModuleIndex, call: ModuleCall, templar: Templar,
                    configured: bool) -> dict[str, Any]:
    """``result`` with ``invocation`` (the module's arguments, no_log values masked) when the task asks for it:
    ``ansible_inject_invocation``, else the configuration's ``inject_invocation``; without it when not, even one
    the module reported (a module written against 2.19's AnsibleModule always does). ansible-core 2.21 adds it
    only when asked, and drops the module's otherwise; 2.19 always kept it."""
    value = call.task_vars.get(INJECT_INVOCATION_VARIABLE, configured)
    if not to_bool(templar.template(value)):
        result.pop("invocation", None)
    elif not result.get("unreachable"):
        result.setdefault("invocation", {"module_args": _invocation_args(index, call)})
    return result


def _invocation_args(index: ModuleIndex, call: ModuleCall) -> dict[str, Any]:
    """The arguments as ``invocation`` shows them: a ``no_log`` argument's value in ansible-core's words, its
    value masked wherever else it appears."""
    info = index.find(call.module)
    spec = info.argument_spec if info else {}
    shown = {name: NO_LOG_ARGUMENT if (spec.get(name) or {}).get("no_log") else value
             for name, value in call.args.items()}
    return mask_secrets(shown, no_log_values(index, call))


def async_limits(async_seconds: int | None, poll: int | None) -> tuple[int | None, int | None]:
    """(limit to wait within, limit of a background job) for ``async``/``poll`` (playbook keywords, or ad-hoc
    ``-B``/``-P``). With a poll interval (15 s unless given) the module is waited for within its limit: the
    persistent agent needs no polling for that. With ``poll: 0`` it starts as a background job on the host and
    the caller goes on at once (async_status follows the job)."""
    if async_seconds is None:
        return None, None
    if poll == 0:
        return None, int(async_seconds)
    return int(async_seconds), None


async def execute_within(session: HostSession | None, index: ModuleIndex, call: ModuleCall, *,
                         timeout: float | None = None, async_limit: int | None = None,
                         poll: int | None = None) -> dict[str, Any]:
    """``execute`` within the tighter of a task's ``timeout`` and its async limit; the agent stops the module
    and what it started when either passes (see AgentClient). With an async limit and its ``poll`` interval,
    the result says how many of Ansible's polls would have found the job still running (``ASYNC_POLLS``)."""
    started = time.monotonic()
    result = await _execute_bounded(session, index, call, timeout=timeout, async_limit=async_limit)
    if async_limit is not None and poll:
        result[ASYNC_POLLS] = unfinished_polls(time.monotonic() - started, poll, async_limit)
    return result


def unfinished_polls(seconds: float, poll: int, limit: int) -> int:
    """How many polls every ``poll`` seconds find a job of ``seconds`` still running, as Ansible polls one of at
    most ``limit`` seconds: those at ``poll``, ``2 * poll``... before it ended, and none past the limit."""
    return max(0, min(math.ceil(seconds / poll) - 1, limit // poll))


async def _execute_bounded(session: HostSession | None, index: ModuleIndex, call: ModuleCall, *,
                           timeout: float | None, async_limit: int | None) -> dict[str, Any]:
    bounds = [float(value) for value in (timeout, async_limit) if value]
    call.in_async_job = async_limit is not None
    call.async_limit = async_limit
    try:
        result = await asyncio.wait_for(execute(session, index, call), min(bounds) if bounds else None)
    except TimeoutError:
        if async_limit and (not timeout or async_limit <= float(timeout)):
            return timed_out_job(async_limit)
        # Ansible's result for a task over its timeout: the message and the timedout key the test reads
        assert timeout is not None  # the wait ended on a bound: the async limit's is handled above
        seconds = float(timeout)
        period = int(seconds) if seconds.is_integer() else seconds
        return {"failed": True, "changed": False, "timedout": {"period": period},
                "msg": f"Timed out after {period} second(s)."}
    if async_limit is not None and index.get(call.module).action_plugin is not None:
        # An action plugin starts the job itself (ActionBase's wrap_async): one that names none has failed, as
        # ansible-core's executor, which would poll the job, reports it.
        if "ansible_job_id" not in result and not result.get("skipped") and not result.get("failed"):
            return {"failed": True, "msg": "No job id was returned by the async task"}
    elif async_limit is not None:
        # Waited for on the agent, with no job file to poll; the result still names a job, as Ansible's does.
        finished_job(result)
    return result


def async_dir(templar: Templar, variables: Mapping[str, Any]) -> str | None:
    """The host's async job directory the task's variables set (``ansible_async_dir``), else None (the default,
    ``~/.ansible_async``)."""
    value = variables.get(ASYNC_DIR_VARIABLE)
    return None if value is None else str(templar.template(value))


def module_rlimit_nofile(templar: Templar, variables: Mapping[str, Any], configured: int = 0) -> int | None:
    """The soft limit of open files a module runs with (``ansible_python_module_rlimit_nofile``, else the
    configuration's ``python_module_rlimit_nofile``), None to leave the host's; 0 and an omitted value leave it
    too (an omitted one is 0, not the configuration's, as in Ansible). A TemplateError (an undefined variable) or
    a UserError for a value that is not a number fails the task."""
    value = variables.get(RLIMIT_NOFILE_VARIABLE)
    if value is None:
        return configured or None
    value = templar.template(value)
    if value is None or value == OMIT or value == "":
        return None
    try:
        limit = int(value)
    except (TypeError, ValueError):
        raise UserError(f"{RLIMIT_NOFILE_VARIABLE} must be a number of open files, got {value!r}") from None
    return limit if limit > 0 else None


def with_async_dir(index: ModuleIndex, call: ModuleCall) -> None:
    """Tell ``async_status`` which directory to read, as Ansible's action passes it (``_async_dir``)."""
    if call.async_dir is not None and index.canonical(call.module) == "async_status":
        call.args = {**call.args, "_async_dir": call.async_dir}


def no_log_values(index: ModuleIndex, call: ModuleCall) -> list[str]:
    from modules._utils import no_log_values as spec_no_log_values

    info = index.find(call.module)
    return spec_no_log_values(info.argument_spec, call.args) if info else []
