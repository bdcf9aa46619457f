"""The one action layer: every controller-side module is marked one way and found in one registry, and actions
reach the run only through the context's narrow run state (no worker, no host for those that do not use it)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from runner.actions import ACTIONS, ActionContext, run_action
from runner.actions.run_state import AddedHost, JoinedGroup
from runner.ansible_api.collections import NATIVE_EQUIVALENTS
from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.module_index import ModuleIndex
from runner.templating import OMIT, Templar, TemplateError, UnsafeText

INDEX = ModuleIndex()


class RecordedRunState:
    """A run state that keeps what actions ask of it, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def set_vars(self, host: str, values: Mapping[str, Any]) -> None:
        self.calls.append(("set_vars", (host, dict(values))))

    def include_vars(self, host: str, values: Mapping[str, Any]) -> None:
        self.calls.append(("include_vars", (host, dict(values))))

    def cache_vars(self, host: str, values: Mapping[str, Any]) -> None:
        self.calls.append(("cache_vars", (host, dict(values))))

    def set_facts(self, host: str, facts: Mapping[str, Any], named: bool = False) -> None:
        self.calls.append(("set_facts", (host, dict(facts))))

    def add_host(self, entry: AddedHost) -> bool:
        self.calls.append(("add_host", entry))
        return True

    def join_group(self, entry: JoinedGroup) -> bool:
        self.calls.append(("join_group", entry))
        return True

    def request_meta(self, action: str) -> None:
        self.calls.append(("request_meta", action))


def act(module: str, args: dict[str, Any], variables: dict[str, Any] | None = None, *, verbosity: int = 0,
        search_paths: list[Path] | None = None) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """Run ``module``'s action for host web1 as a task would, without a session: (result, run-state calls)."""
    state = RecordedRunState()
    ctx = ActionContext(host="web1", module=INDEX.get(module), args=args, state=state,
                        templar=Templar(variables or {}), verbosity=verbosity, search_paths=search_paths or [])
    action = ACTIONS[INDEX.get(module).action or ""]
    return asyncio.run(run_action(action, ctx)), state.calls


def test_every_marked_module_names_a_registered_action_and_every_action_has_its_module() -> None:
    # the shipped modules, and those of ansible-core's internal collection, which only their full names find
    internal = [name for name, native in NATIVE_EQUIVALENTS.items() if native.startswith("_")]
    marked = {name: INDEX.get(name).action for name in [*INDEX.names(), *internal] if INDEX.get(name).action}
    assert set(marked.values()) == set(ACTIONS)
    assert all(module == action for module, action in marked.items())
    for name in INDEX.names():  # one marker only
        assert not hasattr(INDEX.get(name).python, "RUNS_ON"), name


def test_actions_that_only_read_or_change_the_run_never_use_the_host() -> None:
    host_free = {name for name, action in ACTIONS.items() if not action.uses_host}
    assert host_free == {"debug", "set_fact", "assert", "fail", "pause", "include_vars", "add_host", "group_by",
                         "meta", "server", "set_stats", "validate_argument_spec", "ansible._protomatter.debug"}
    assert not {name for name, action in ACTIONS.items() if action.playbook_only}


def test_debug_reads_the_templar_and_the_verbosity() -> None:
    shown = {"_ansible_verbose_always": True}  # as ansible-core's debug: the view shows it without -v
    assert act("debug", {"msg": "hi"}) == ({"changed": False, "msg": "hi", **shown}, [])
    assert act("debug", {"var": "who"}, {"who": "web1"})[0] == {"changed": False, "who": "web1", **shown}
    assert act("debug", {"var": "missing"})[0] == {
        "changed": False, "missing": "<< error 1 - 'missing' is undefined >>", **shown,
        "warnings": ["Encountered 1 template error.\nerror 1 - 'missing' is undefined"]}
    skipped = act("debug", {"msg": "hi", "verbosity": 2}, verbosity=1)[0]
    assert skipped["skipped"] is True and "_ansible_verbose_always" not in skipped


def test_debug_shows_a_var_that_renders_to_omit_as_ansibles_placeholder() -> None:
    result = act("debug", {"var": "gone"}, {"gone": "{{ omit }}", "omit": OMIT})[0]
    assert result["gone"] == "<<Omit>>" and "placeholder" in result["warnings"][0]


def test_debug_renders_a_templated_var_as_ansible_2_19_does() -> None:
    variables = {"who": "web1", "name_var": "who", "omit": OMIT}
    assert act("debug", {"var": "{{ name_var }}"}, variables)[0] == {"changed": False, "who": "web1",
                                                                     "_ansible_verbose_always": True}
    assert act("debug", {"var": "{{ omit }}"}, variables)[0]["msg"] == "Hello world!"
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        act("debug", {"var": "{{ 'who' }}"}, variables)
    # a with_items item is marked unsafe: a plain name in it is read, an expression is refused
    assert act("debug", {"var": "{{ item }}"}, {**variables, "item": UnsafeText("who")})[0]["who"] == "web1"
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        act("debug", {"var": "{{ item }}"}, {**variables, "item": UnsafeText("lookup('pipe', 'id')")})


def test_debug_refuses_a_var_name_marked_unsafe() -> None:
    with pytest.raises(TemplateError, match="Encountered untrusted template or expression"):
        act("debug", {"var": UnsafeText("who")}, {"who": "web1"})


def test_debug_refuses_a_var_that_is_not_a_name() -> None:
    result = act("debug", {"var": {"some": None}})[0]
    assert result["failed"] and "is not a string and conversion is not allowed" in result["msg"]


def test_a_bad_argument_is_the_hosts_failure_with_the_reason() -> None:
    result, calls = act("debug", {"msg": "hi", "colour": "red"})
    assert result["failed"] is True and "colour" in result["msg"] and calls == []


def test_set_fact_and_include_vars_go_to_the_run_state_at_their_levels(tmp_path: Path) -> None:
    result, calls = act("set_fact", {"flag": "yes", "cacheable": "yes"})
    assert calls == [("set_vars", ("web1", {"flag": "yes"})), ("cache_vars", ("web1", {"flag": "yes"}))]
    assert result == {"changed": False, "ansible_facts": {"flag": "yes"}}  # a string stays one, as in 2.19
    assert act("set_fact", {"flag": 1, "cacheable": "no"})[1] == [("set_vars", ("web1", {"flag": 1}))]
    (tmp_path / "vars").mkdir()
    (tmp_path / "vars" / "app.yml").write_text("port: 8080\n")
    result, calls = act("include_vars", {"file": "app.yml"}, search_paths=[tmp_path])
    assert calls == [("include_vars", ("web1", {"port": 8080}))]
    assert result["ansible_included_var_files"] == [str(tmp_path / "vars" / "app.yml")]


def test_inventory_changes_and_meta_are_requests_to_the_run_state() -> None:
    result, calls = act("add_host", {"name": "db1", "groups": "db, backup", "ansible_port": 2222})
    assert calls == [("add_host", AddedHost("db1", ("db", "backup"), {"ansible_port": 2222}))]
    assert result["add_host"] == {"host_name": "db1", "groups": ["db", "backup"], "host_vars": {"ansible_port": 2222}}
    assert act("group_by", {"key": "os Debian"})[1] == [("join_group", JoinedGroup("os-Debian", "web1", ("all",)))]
    assert act("meta", {"_raw_params": "end_host"}) == (
        {"changed": False, "msg": "ending play for web1"}, [("request_meta", "end_host")])


def test_an_action_that_uses_no_host_has_no_session() -> None:
    ctx = ActionContext(host="web1", module=INDEX.get("debug"), args={}, state=RecordedRunState(), templar=Templar())
    with pytest.raises(RuntimeError, match="not using the host"):
        ctx.session  # noqa: B018


def test_a_library_module_marked_with_an_unregistered_action_is_a_compile_error(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "library" / "notify_chat.py").write_text('ACTION = "notify_chat"\nARGUMENT_SPEC = {}\n')
    (tmp_path / "site.yml").write_text("- hosts: all\n  tasks:\n    - notify_chat: {}\n")
    compiler = Compiler(CompileOptions(library=[tmp_path / "library"]))
    with pytest.raises(UserError) as raised:
        compiler.compile_playbooks([tmp_path / "site.yml"])
    text = raised.value.render(with_excerpt=False)
    assert "site.yml:3:7" in text and "ACTION = 'notify_chat'" in text and "runner/actions/__init__.py" in text


def test_assert_results_are_shown_at_any_verbosity_unless_quiet() -> None:
    # ansible-core's assert marks its result _ansible_verbose_always, so `ok: [h] => {"msg": ...}` prints
    assert act("assert", {"that": ["1 == 1"], "success_msg": "PASSED"})[0] == {
        "changed": False, "msg": "PASSED", "_ansible_verbose_always": True}
    assert act("assert", {"that": ["1 == 2"]})[0]["_ansible_verbose_always"] is True
    assert "_ansible_verbose_always" not in act("assert", {"that": ["1 == 1"], "quiet": True})[0]
