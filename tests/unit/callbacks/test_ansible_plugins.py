"""Callback plugins written against Ansible's Python API: which ones ansible-core's rules load, and the v2_ calls
and objects a run's events become. ansible-core's loader is one per process: each test names its plugins apart."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from runner.ansible_api.callback_plugins import CallbackPluginSetup, other_plugins, stdout_plugin
from runner.callbacks.ansible_plugin import AnsibleCallbackPlugins
from runner.callbacks.base import HostStats, PlayInfo, TaskInfo
from runner.errors import UserError

pytest.importorskip("ansible.plugins.callback")

RECORDER = '''
from ansible.plugins.callback import CallbackBase

CALLS = []


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "{kind}"
    CALLBACK_NAME = "{name}"

    def v2_playbook_on_play_start(self, play):
        CALLS.append(("play", play.get_name()))

    def v2_playbook_on_task_start(self, task, is_conditional):
        CALLS.append(("task", task.get_name(), task.action))

    def v2_runner_on_ok(self, result):
        CALLS.append(("ok", result.host.get_name(), result.task.connection, dict(result.result)))

    def v2_runner_on_failed(self, result, ignore_errors=False):
        CALLS.append(("failed", result.host.get_name(), ignore_errors))

    def v2_runner_item_on_ok(self, result):
        CALLS.append(("item", result.result["item"]))

    def v2_playbook_on_stats(self, stats):
        CALLS.append(("stats", stats.summarize("web1")))

{extra}
'''

TASK = TaskInfo(name="install nginx", module="ansible.builtin.apt", position="site.yml:5:7", args={"name": "nginx"})


def _plugin(folder: Path, name: str, *, kind: str = "aggregate", extra: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(RECORDER.format(kind=kind, name=name, extra=textwrap.indent(extra, "    ")), encoding="utf-8")
    return path


def _calls(plugin: Any) -> list[Any]:
    return list(__import__(type(plugin).__module__, fromlist=["CALLS"]).CALLS)


def _feed(adapter: AnsibleCallbackPlugins) -> None:
    adapter.play_start(PlayInfo(name="web", pattern="web", position="site.yml:1:3"), ["web1"])
    adapter.task_start(TASK, ["web1"])
    adapter.host_result(TASK, "web1", {"changed": True, "_status": "changed", "_duration": 1.5,
                                       "results": [{"item": "a", "changed": True, "_status": "changed"}]})
    adapter.host_result(TASK, "web2", {"failed": True, "msg": "no", "_status": "failed", "_ignored": True})
    adapter.playbook_end({"web1": HostStats(ok=1, changed=1)}, 0)


def test_a_plugin_beside_the_playbook_gets_the_runs_events_as_ansible_cores_calls(tmp_path: Path) -> None:
    _plugin(tmp_path / "callback_plugins", "recorder_events")
    warnings: list[str] = []
    plugins = other_plugins("default", [], CallbackPluginSetup(owners=(tmp_path,)), native=lambda name: False,
                            warn=warnings.append)
    assert [type(plugin).__module__.rsplit(".", 1)[-1] for plugin in plugins] == ["recorder_events"]
    connections = {"web1": "ssh", "web2": "local"}
    _feed(AnsibleCallbackPlugins(plugins, connection_of=connections.__getitem__, warn=warnings.append))
    assert _calls(plugins[0]) == [
        ("play", "web"),
        ("task", "install nginx", "ansible.builtin.apt"),
        ("item", "a"),
        ("ok", "web1", "ssh", {"changed": True, "results": [{"item": "a", "changed": True}]}),
        ("failed", "web2", True),
        ("stats", {"ok": 1, "failures": 0, "unreachable": 0, "changed": 1, "skipped": 0, "rescued": 0,
                   "ignored": 0}),
    ]
    assert warnings == []


def test_task_connection_is_the_connection_the_task_ran_through(tmp_path: Path) -> None:
    # As ansible-core 2.21: task.connection is the task's templated and resolved connection, not the inventory's.
    _plugin(tmp_path / "callback_plugins", "recorder_connection")
    plugins = other_plugins("default", [], CallbackPluginSetup(owners=(tmp_path,)), native=lambda name: False,
                            warn=print)
    adapter = AnsibleCallbackPlugins(plugins, connection_of=lambda host: "ssh", warn=print)
    adapter.task_start(TASK, ["web1"])
    adapter.host_result(TASK, "web1", {"changed": False, "_status": "ok", "_connection": "ansible.builtin.local"})
    adapter.host_result(TASK, "web1", {"changed": False, "_status": "ok", "results": [
        {"item": 1, "changed": False, "_status": "ok", "_connection": "ansible.builtin.local"}]})
    assert [call[2] for call in _calls(plugins[0]) if call[0] == "ok"] == ["ansible.builtin.local"] * 2


def test_a_plugin_that_needs_enabling_runs_only_when_callbacks_enabled_names_it(tmp_path: Path) -> None:
    _plugin(tmp_path / "callback_plugins", "recorder_enabled", extra="CALLBACK_NEEDS_ENABLED = True")
    setup = CallbackPluginSetup(owners=(tmp_path,))
    assert other_plugins("default", [], setup, native=lambda name: False, warn=print) == []
    enabled = other_plugins("default", ["recorder_enabled"], setup, native=lambda name: False, warn=print)
    assert [type(plugin).__module__.rsplit(".", 1)[-1] for plugin in enabled] == ["recorder_enabled"]


def test_an_enabled_name_found_nowhere_is_ansible_cores_warning(tmp_path: Path) -> None:
    warnings: list[str] = []
    assert other_plugins("default", ["nowhere_to_be_found"], CallbackPluginSetup(owners=(tmp_path,)),
                         native=lambda name: False, warn=warnings.append) == []
    assert warnings == ["Skipping callback plugin 'nowhere_to_be_found', unable to load"]


def test_a_stdout_plugin_is_found_by_name_and_an_unknown_one_is_an_error(tmp_path: Path) -> None:
    _plugin(tmp_path / "callback_plugins", "recorder_stdout", kind="stdout")
    setup = CallbackPluginSetup(owners=(tmp_path,))
    plugin = stdout_plugin("recorder_stdout", setup)
    assert type(plugin).__name__ == "CallbackModule"
    # a stdout plugin found beside the playbook is not loaded a second time beside it
    assert other_plugins("recorder_stdout", [], setup, native=lambda name: False, warn=print) == []
    with pytest.raises(UserError, match="could not load the 'no_such_view' callback plugin"):
        stdout_plugin("no_such_view", setup)


def test_a_plugin_that_raises_is_a_warning_and_the_others_still_get_the_event(tmp_path: Path) -> None:
    _plugin(tmp_path / "callback_plugins", "recorder_raises",
            extra="def v2_playbook_on_task_start(self, task, is_conditional):\n    raise RuntimeError('boom')")
    _plugin(tmp_path / "callback_plugins", "recorder_after")
    warnings: list[str] = []
    plugins = other_plugins("default", [], CallbackPluginSetup(owners=(tmp_path,)), native=lambda name: False,
                            warn=warnings.append)
    AnsibleCallbackPlugins(plugins, connection_of=lambda host: "ssh", warn=warnings.append).task_start(TASK, ["web1"])
    assert len(warnings) == 1 and "v2_playbook_on_task_start" in warnings[0] and "boom" in warnings[0]
    after = next(plugin for plugin in plugins if type(plugin).__module__.endswith("recorder_after"))
    assert _calls(after) == [("task", "install nginx", "ansible.builtin.apt")]


EVENTS = '''
def v2_runner_on_start(self, host, task):
    CALLS.append(("start", host.get_name(), task.get_name(), task.connection))

def v2_runner_retry(self, result):
    CALLS.append(("retry", result.host.get_name(), result.result["attempts"], result.result["retries"]))

def v2_runner_on_async_poll(self, result):
    CALLS.append(("async_poll", result.result["ansible_job_id"], result.result["started"], result.result["finished"]))

def v2_runner_on_async_ok(self, result):
    CALLS.append(("async_ok", result.result["ansible_job_id"]))

def v2_runner_on_async_failed(self, result):
    CALLS.append(("async_failed", result.result["ansible_job_id"]))

def v2_on_file_diff(self, result):
    CALLS.append(("diff", result.result.get("item"), result.result["diff"]))
'''


def _events_adapter(tmp_path: Path, name: str, *, diff: bool = False) -> tuple[AnsibleCallbackPlugins, Any]:
    _plugin(tmp_path / name / "callback_plugins", name, extra=EVENTS)
    plugins = other_plugins("default", [], CallbackPluginSetup(owners=(tmp_path / name,)), native=lambda name: False,
                            warn=print)
    return AnsibleCallbackPlugins(plugins, connection_of=lambda host: "ssh", warn=print, diff=diff), plugins[0]


def test_a_host_starting_a_task_is_v2_runner_on_start(tmp_path: Path) -> None:
    adapter, plugin = _events_adapter(tmp_path, "recorder_start")
    adapter.host_start(TASK, "web1")
    assert _calls(plugin) == [("start", "web1", "install nginx", "ssh")]


def test_each_attempt_run_again_is_a_retry_before_the_result(tmp_path: Path) -> None:
    adapter, plugin = _events_adapter(tmp_path, "recorder_retry")
    tries = [{"failed": True, "attempts": 1, "retries": 3}, {"failed": True, "attempts": 2, "retries": 3}]
    adapter.host_result(TASK, "web1", {"attempts": 3, "_status": "ok", "_retried": tries})
    assert _calls(plugin) == [("retry", "web1", 1, 3), ("retry", "web1", 2, 3),
                              ("ok", "web1", "ssh", {"attempts": 3})]


def test_an_async_task_waited_for_is_its_polls_then_async_ok_or_failed(tmp_path: Path) -> None:
    adapter, plugin = _events_adapter(tmp_path, "recorder_async")
    adapter.host_result(TASK, "web1", {"ansible_job_id": "j1", "_async_polls": 2, "_status": "changed",
                                       "changed": True})
    adapter.host_result(TASK, "web2", {"ansible_job_id": "j2", "_async_polls": 0, "_status": "failed",
                                       "failed": True})
    assert _calls(plugin) == [
        ("async_poll", "j1", True, False), ("async_poll", "j1", True, False), ("async_ok", "j1"),
        ("ok", "web1", "ssh", {"ansible_job_id": "j1", "changed": True}),
        ("async_failed", "j2"), ("failed", "web2", False)]


def test_a_diff_is_sent_before_the_result_when_the_task_or_the_run_shows_diffs(tmp_path: Path) -> None:
    diff = {"before": "a\n", "after": "b\n"}
    adapter, plugin = _events_adapter(tmp_path, "recorder_diff")
    adapter.host_result(TASK, "web1", {"changed": True, "_status": "changed", "diff": diff})  # no --diff
    shown = TaskInfo(name="copy", module="copy", position="site.yml:9:7", diff=True)
    adapter.host_result(shown, "web1", {"failed": True, "_status": "failed", "diff": diff})  # a failure: none
    adapter.host_result(shown, "web1", {"changed": True, "_status": "changed",
                                        "results": [{"item": "x", "changed": True, "_status": "changed",
                                                     "diff": diff}]})
    assert [call for call in _calls(plugin) if call[0] in ("diff", "item")] == [("diff", "x", diff), ("item", "x")]
    run_diff, plugin = _events_adapter(tmp_path, "recorder_run_diff", diff=True)
    run_diff.host_result(TASK, "web1", {"changed": True, "_status": "changed", "diff": diff})
    assert _calls(plugin)[0] == ("diff", None, diff)
