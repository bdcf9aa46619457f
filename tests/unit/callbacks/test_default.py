"""The default view prints what Ansible's default stdout callback prints, line for line."""

from __future__ import annotations

import io
from typing import Any

import pytest

from runner.callbacks.base import HostStats, PlayInfo, TaskInfo
from runner.callbacks.default import DefaultDisplay, recap_line, task_path
from runner.callbacks.default_options import DefaultOptions
from runner.callbacks.results import NO_LOG_MESSAGE
from runner.errors import SourcePosition

STARS_TO_80 = 80


@pytest.fixture(autouse=True)
def _no_forced_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVISIONING_FORCE_COLOR", raising=False)


class Screen:
    """A default view writing to strings: ``text`` is stdout, ``errors`` is stderr."""

    def __init__(self, **options: Any):
        self.out = io.StringIO()
        self.err = io.StringIO()
        self.view = DefaultDisplay(stream=self.out, err=self.err, **options)

    @property
    def text(self) -> str:
        return self.out.getvalue()

    @property
    def errors(self) -> str:
        return self.err.getvalue()

    def task(self, task: TaskInfo, results: dict[str, dict[str, Any]]) -> str:
        """Run one task's events and return just what they printed."""
        start = len(self.text)
        self.view.task_start(task, list(results))
        for host, result in results.items():
            self.view.host_result(task, host, result)
        return self.text[start:]


def banner(text: str) -> str:
    return f"\n{text} {'*' * (STARS_TO_80 - 1 - len(text))}\n"


def result(status: str, **keys: Any) -> dict[str, Any]:
    flags = {"changed": {"changed": True}, "failed": {"failed": True, "changed": False},
             "skipped": {"skipped": True, "changed": False}, "unreachable": {"unreachable": True, "changed": False},
             "ok": {"changed": False}}[status]
    return {**flags, "_status": status, **keys}


def item(status: str, value: Any, **keys: Any) -> dict[str, Any]:
    return result(status, item=value, ansible_loop_var="item", **keys)


INSTALL = TaskInfo(name="install nginx", module="apt", position="roles/nginx/tasks/main.yml:3:3", role="nginx")
# ansible-core 2.19's lines before a failure of INSTALL (its file is this repository's own nginx role)
INSTALL_ORIGIN = SourcePosition("roles/nginx/tasks/main.yml", 3, 3).origin()


def failure_lines(summary: str) -> str:
    return f"[ERROR]: {summary}\n{INSTALL_ORIGIN}\n\n"


def test_play_and_task_headers_fill_80_columns() -> None:
    screen = Screen()
    screen.view.play_start(PlayInfo("web servers", "web", "site.yml:1:3"), ["web1"])
    screen.view.task_start(INSTALL, ["web1"])
    assert screen.text == banner("PLAY [web servers]") + banner("TASK [nginx : install nginx]")
    assert all(len(line) == STARS_TO_80 for line in screen.text.splitlines() if line)


def test_unnamed_play_and_handler_header() -> None:
    screen = Screen()
    screen.view.play_start(PlayInfo("", "all", "site.yml:1:3"), [])
    handler = TaskInfo(name="restart nginx", module="service", position="h.yml:1:3", role="nginx", is_handler=True)
    screen.view.task_start(handler, ["web1"])
    assert screen.text == banner("PLAY") + "skipping: no hosts matched\n" + \
        banner("RUNNING HANDLER [nginx : restart nginx]")


def test_long_title_keeps_three_stars() -> None:
    screen = Screen()
    long = TaskInfo(name="x" * 100, module="ping", position="p.yml:1:1")
    screen.view.task_start(long, ["h"])
    assert screen.text == f"\nTASK [{'x' * 100}] ***\n"


def test_check_mode_marker_on_play_and_task() -> None:
    screen = Screen()
    screen.view.play_start(PlayInfo("web", "web", "site.yml:1:3", check_mode=True), ["web1"])
    screen.view.task_start(TaskInfo("probe", "command", "p.yml:1:1", check_mode=True), ["web1"])
    screen.view.task_start(TaskInfo("apply", "command", "p.yml:2:1", check_mode=False), ["web1"])
    assert screen.text == banner("PLAY [web] [CHECK MODE]") + banner("TASK [probe] [CHECK MODE]") + \
        banner("TASK [apply]")


def test_no_check_mode_marker_without_check_mode_markers() -> None:
    screen = Screen(options=DefaultOptions(check_mode_markers=False))
    screen.view.playbook_start("site.yml", check=True)
    screen.view.play_start(PlayInfo("web", "web", "site.yml:1:3", check_mode=True), ["web1"])
    screen.view.task_start(TaskInfo("probe", "command", "p.yml:1:1", check_mode=True), ["web1"])
    screen.view.playbook_end({}, 0)
    assert screen.text == banner("PLAY [web]") + banner("TASK [probe]") + banner("PLAY RECAP") + "\n"


def test_dry_run_banners_around_a_check_run() -> None:
    screen = Screen()
    screen.view.playbook_start("site.yml", check=True)
    screen.view.playbook_end({}, 0)
    assert screen.text == banner("DRY RUN") + banner("PLAY RECAP") + "\n" + banner("DRY RUN")


def test_no_dry_run_banner_without_check() -> None:
    screen = Screen()
    screen.view.playbook_start("site.yml", check=False)
    screen.view.playbook_end({}, 0)
    assert screen.text == banner("PLAY RECAP") + "\n"


def test_result_lines_for_each_status() -> None:
    screen = Screen()
    text = screen.task(INSTALL, {
        "web1": result("ok"),
        "web2": result("changed"),
        "web3": result("skipped", skip_reason="Conditional result was False"),
        "web4": result("failed", msg="No package matching 'ngnx' is available"),
        "web5": result("unreachable", msg="Failed to connect to the host via ssh"),
    })
    assert text == banner("TASK [nginx : install nginx]") + (
        "ok: [web1]\n"
        "changed: [web2]\n"
        "skipping: [web3]\n"
        + failure_lines("Task failed: Module failed: No package matching 'ngnx' is available") +
        'fatal: [web4]: FAILED! => {"changed": false, "msg": "No package matching \'ngnx\' is available"}\n'
        + failure_lines("Task failed: Failed to connect to the host via ssh") +  # its connection's error
        'fatal: [web5]: UNREACHABLE! => {"changed": false, "msg": "Failed to connect to the host via ssh", '
        '"unreachable": true}\n')


def test_ignored_failure_and_delegated_host() -> None:
    screen = Screen()
    text = screen.task(INSTALL, {
        "web1": result("failed", msg="boom", _ignored=True),
        "web2": result("changed", _delegated_to="db1"),
        "web3": result("ok", _delegated_to="web3"),
    })
    assert text == banner("TASK [nginx : install nginx]") + failure_lines("Task failed: Module failed: boom") + (
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "boom"}\n...ignoring\nchanged: [web2 -> db1]\n'
        "ok: [web3]\n")


def test_verbose_adds_the_result_without_internal_keys() -> None:
    screen = Screen(verbosity=1)
    text = screen.task(INSTALL, {"web1": result("changed", rc=0, invocation={"module_args": {}}, _duration=1.5)})
    assert text.splitlines()[-1] == 'changed: [web1] => {"changed": true, "rc": 0}'


def test_vv_prints_the_task_path_and_playbook() -> None:
    screen = Screen(verbosity=2)
    screen.view.playbook_start("/srv/play/site.yml", plays=2)
    screen.task(INSTALL, {})
    # "2 plays in ..." follows, printed by the engine's lines whatever the view (test_engine_lines.py)
    assert screen.text == banner("PLAYBOOK: site.yml") + \
        banner("TASK [nginx : install nginx]") + "task path: roles/nginx/tasks/main.yml:3\n"


def test_vv_heads_a_meta_task_whose_header_waited() -> None:
    """With ok results hidden, a meta task's header waits; its META line (the engine's) needs it printed."""
    screen = Screen(verbosity=2, hide=["ok"])
    screen.view.task_start(INSTALL, ["web1"])
    assert screen.text == ""
    screen.view.meta_result(INSTALL, "web1", "ending play for web1")
    assert screen.text == banner("TASK [nginx : install nginx]") + "task path: roles/nginx/tasks/main.yml:3\n"


def test_vvv_indents_and_keeps_invocation() -> None:
    screen = Screen(verbosity=3)
    text = screen.task(INSTALL, {"web1": result("ok", invocation={"module_args": {"name": "nginx"}})})
    assert text.endswith('ok: [web1] => {\n    "changed": false,\n    "invocation": {\n        "module_args": {\n'
                         '            "name": "nginx"\n        }\n    }\n}\n')


DEBUG = TaskInfo(name="show", module="ansible.builtin.debug", position="p.yml:1:1")
SHOWN = {"_ansible_verbose_always": True}  # what debug's action puts in what it shows


def test_debug_is_always_shown_pretty_and_alone() -> None:
    screen = Screen()
    text = screen.task(DEBUG, {"web1": result("ok", msg="hello", failed=False, **SHOWN)})
    assert text.endswith('ok: [web1] => {\n    "msg": "hello"\n}\n')
    text = screen.task(DEBUG, {"web1": result("ok", version="1.2", **SHOWN)})
    assert text.endswith('ok: [web1] => {\n    "version": "1.2"\n}\n')


def test_a_debug_result_its_action_did_not_make_is_shown_as_any_other() -> None:
    # As ansible-core: skipped by a condition, or a loop's own result, a debug task's result is not shown.
    screen = Screen()
    text = screen.task(DEBUG, {"web1": result("skipped", false_condition=False)})
    assert text.splitlines()[2:] == ["skipping: [web1]"]
    loop = [item("skipped", 1, false_condition=False), item("skipped", 2, false_condition=False)]
    text = screen.task(DEBUG, {"web1": result("skipped", msg="All items completed", results=loop)})
    assert text.splitlines()[2:] == ["skipping: [web1] => (item=1) ", "skipping: [web1] => (item=2) ",
                                     "skipping: [web1]"]


def test_a_failed_debug_loop_ends_with_its_own_line() -> None:
    # ansible-core's view strips a debug result to its message before it looks for the items: the loop's line
    # follows them; the [ERROR] lines come at the item that failed, each distinct text once.
    screen = Screen()
    items = [item("changed", 1, msg="one", **SHOWN), item("failed", 2, msg="two", **SHOWN),
             item("failed", 3, msg="two", **SHOWN)]
    text = screen.task(DEBUG, {"web1": result("failed", msg="One or more items failed", results=items)})
    lines = text.splitlines()
    assert lines[2:5] == ["changed: [web1] => (item=1) => {", '    "msg": "one"', "}"]
    assert lines[5] == "[ERROR]: Task failed: Module failed: two" and lines.count(lines[5]) == 1
    assert lines[lines.index("failed: [web1] (item=2) => {") - 1] == ""  # the end of the [ERROR] block
    assert lines[-4:] == ["failed: [web1] (item=3) => {", '    "msg": "two"', "}",
                          'fatal: [web1]: FAILED! => {"msg": "One or more items failed"}']


def test_loop_prints_one_line_per_item() -> None:
    screen = Screen()
    loop = {"results": [item("changed", "nginx"), item("ok", {"name": "curl"}),
                        item("skipped", "vim"), item("changed", "git", _label="the git package")]}
    text = screen.task(INSTALL, {"web1": result("changed", msg="All items completed", **loop)})
    assert text.splitlines()[2:] == ["changed: [web1] => (item=nginx)", "ok: [web1] => (item={'name': 'curl'})",
                                     "skipping: [web1] => (item=vim) ", "changed: [web1] => (item=the git package)"]


def test_loop_with_custom_loop_var_failure_and_ignoring() -> None:
    screen = Screen()
    failed = {**result("failed", msg="nope"), "pkg": "bad", "ansible_loop_var": "pkg"}
    text = screen.task(INSTALL, {"web1": result("failed", msg="One or more items failed", _ignored=True,
                                                results=[{**result("ok"), "pkg": "good", "ansible_loop_var": "pkg"},
                                                         failed])})
    # ansible-core says what the item that failed says, where it failed; no line of the loop's own follows
    assert text == banner("TASK [nginx : install nginx]") + "ok: [web1] => (item=good)\n" + failure_lines(
        "Task failed: Module failed: nope") + (
        'failed: [web1] (item=bad) => {"ansible_loop_var": "pkg", "changed": false, "msg": "nope", "pkg": "bad"}\n'
        "...ignoring\n")


def test_fully_skipped_loop_ends_with_the_host_line() -> None:
    screen = Screen()
    text = screen.task(INSTALL, {"web1": result("skipped", results=[item("skipped", 1), item("skipped", 2)])})
    assert text.splitlines()[2:] == ["skipping: [web1] => (item=1) ", "skipping: [web1] => (item=2) ",
                                     "skipping: [web1]"]


def test_no_log_hides_results_and_item_labels() -> None:
    screen = Screen(verbosity=1)
    secret = TaskInfo(name="set password", module="user", position="p.yml:1:1", no_log=True)
    text = screen.task(secret, {
        "web1": result("failed", msg="password=hunter2 rejected"),
        "web2": result("changed", results=[item("changed", "hunter2", password="hunter2")]),
    })
    assert "hunter2" not in text
    assert text.splitlines()[2:] == [
        f'fatal: [web1]: FAILED! => {{"censored": "{NO_LOG_MESSAGE}", "changed": false}}',
        f'changed: [web2] => (item=(censored due to no_log)) => {{"censored": "{NO_LOG_MESSAGE}", "changed": true}}']


def test_result_censored_by_the_executor_is_shown_censored() -> None:
    screen = Screen()
    text = screen.task(INSTALL, {"web1": result("failed", censored=NO_LOG_MESSAGE)})
    assert text.splitlines()[-1] == f'fatal: [web1]: FAILED! => {{"censored": "{NO_LOG_MESSAGE}", "changed": false}}'


def test_warnings_go_to_stderr_once() -> None:
    screen = Screen()
    screen.task(INSTALL, {"web1": result("ok", warnings=["Consider using the apt module"]),
                          "web2": result("ok", warnings=["Consider using the apt module"])})
    screen.view.warning("No hosts matched")
    assert screen.errors == "[WARNING]: Consider using the apt module\n[WARNING]: No hosts matched\n"
    assert "warnings" not in screen.text


def test_a_warning_with_an_origin_block_is_wrapped_on_its_first_line_only() -> None:
    screen = Screen()
    origin = "Origin: site.yml:4:7\n\n4     - debug:\n        ^ column 7"
    screen.view.warning(f"{'word ' * 20}end\n{origin}")
    first, second, rest = screen.errors.split("\n", 2)
    assert first.startswith("[WARNING]: word") and second.endswith("word end")
    assert rest == origin + "\n"


def test_exception_summary_and_full_traceback() -> None:
    trace = 'Traceback (most recent call last):\n  File "x", line 1\nValueError: bad value'
    short = Screen()
    short.task(INSTALL, {"web1": result("failed", msg="MODULE FAILURE", exception=trace)})
    assert ("An exception occurred during task execution. To see the full traceback, use -vvv. "
            "The error was: ValueError: bad value\n"
            'fatal: [web1]: FAILED! => {"changed": false, "msg": "MODULE FAILURE"}\n') in short.text
    full = Screen(verbosity=3)
    full.task(INSTALL, {"web1": result("failed", msg="MODULE FAILURE", exception=trace)})
    assert f"The full traceback is:\n{trace}\n" in full.text


def test_include_and_no_more_hosts() -> None:
    screen = Screen()
    include = TaskInfo(name="include_tasks", module="include_tasks", position="p.yml:1:1")
    text = screen.task(include, {"web1": result("ok", _include={"kind": "include_tasks", "entries": []})})
    screen.view.include("/srv/play/tasks/setup.yml", ["web1", "web2"])
    screen.view.include("/srv/play/tasks/user.yml", ["web1"], item_label="alice")
    screen.view.no_hosts_remaining()
    assert text == banner("TASK [include_tasks]")
    assert screen.text[len(text):] == ("included: /srv/play/tasks/setup.yml for web1, web2\n"
                                       "included: /srv/play/tasks/user.yml for web1 => (item=alice)\n"
                                       + banner("NO MORE HOSTS LEFT"))


def test_free_strategy_prints_headers_with_results() -> None:
    screen = Screen()
    screen.view.play_start(PlayInfo("p", "all", "p.yml:1:1", strategy="free"), ["a", "b"])
    first = TaskInfo(name="one", module="ping", position="p.yml:3:7")
    second = TaskInfo(name="two", module="ping", position="p.yml:5:7")
    for task, host in ((first, "a"), (second, "a"), (first, "b")):
        screen.view.task_start(task, [host])
        screen.view.host_result(task, host, result("ok"))
    assert screen.text == banner("PLAY [p]") + banner("TASK [one]") + "ok: [a]\n" + banner("TASK [two]") + \
        "ok: [a]\n" + banner("TASK [one]") + "ok: [b]\n"


def test_hidden_ok_and_skipped_defer_the_header() -> None:
    screen = Screen(hide=("ok", "skipped"))
    quiet = screen.task(INSTALL, {"web1": result("ok"), "web2": result("skipped")})
    loud = screen.task(INSTALL, {"web1": result("ok"), "web2": result("changed")})
    assert quiet == ""
    assert loud == banner("TASK [nginx : install nginx]") + "changed: [web2]\n"


def test_diff_is_printed_before_the_changed_line() -> None:
    screen = Screen(diff=True)
    change = {"before": "a\nb\n", "after": "a\nc\n", "before_header": "/etc/motd", "after_header": "/etc/motd"}
    text = screen.task(INSTALL, {"web1": result("changed", diff=change), "web2": result("ok", diff=change)})
    assert text.splitlines()[2:] == ["--- before: /etc/motd", "+++ after: /etc/motd", "@@ -1,2 +1,2 @@", " a", "-b",
                                     "+c", "", "changed: [web1]", "ok: [web2]"]


def test_diff_follows_the_task_keyword_over_the_flag() -> None:
    change = {"before": "a\n", "after": "b\n"}
    off = TaskInfo(name="quiet", module="copy", position="p.yml:1:1", diff=False)
    on = TaskInfo(name="loud", module="copy", position="p.yml:2:1", diff=True)
    assert "+b" not in Screen(diff=True).task(off, {"h": result("changed", diff=change)})
    assert "+b" in Screen(diff=False).task(on, {"h": result("changed", diff=change)})


def test_diff_per_loop_item() -> None:
    screen = Screen(diff=True)
    loop = [item("changed", "a", diff={"before": "", "after": "x\n"}), item("ok", "b", diff={"before": "y\n",
                                                                                             "after": "z\n"})]
    text = screen.task(INSTALL, {"web1": result("changed", results=loop)})
    assert text.splitlines()[2:] == ["--- before", "+++ after", "@@ -0,0 +1 @@", "+x", "",
                                     "changed: [web1] => (item=a)", "ok: [web1] => (item=b)"]


def stats_result(data: dict[str, Any], *, per_host: bool = False, aggregate: bool = True) -> dict[str, Any]:
    return result("ok", ansible_stats={"data": data, "per_host": per_host, "aggregate": aggregate})


def test_custom_stats_are_aggregated_and_printed_after_the_recap_when_asked() -> None:
    stats_task = TaskInfo(name="count", module="set_stats", position="p.yml:1:3")
    screen = Screen(show_custom_stats=True)
    screen.task(stats_task, {"web1": stats_result({"my_int": 10, "tags": {"a": 1}})})
    screen.task(stats_task, {"web1": stats_result({"my_int": 15, "tags": {"b": 2}, "mismatch": "x"})})
    screen.task(stats_task, {"web1": stats_result({"mismatch": 3})})  # another type: kept as it was, as in Ansible
    screen.task(stats_task, {"web1": {"changed": False, "results": [  # a loop's items each record theirs
        {**stats_result({"seen": 1}, per_host=True), "item": 1},
        {**stats_result({"seen": 5}, per_host=True, aggregate=False), "item": 2}]}})
    start = len(screen.text)
    screen.view.playbook_end({"web1": HostStats(ok=4)}, 0)
    printed = screen.text[start:].split(banner("CUSTOM STATS:").lstrip("\n"), 1)[1]
    assert printed == ('\tweb1: { "seen": 5}\n\n'
                       '\tRUN: { "mismatch": "x", "my_int": 25, "tags": {  "a": 1,  "b": 2 }}\n\n')
    quiet = Screen()
    quiet.task(stats_task, {"web1": stats_result({"my_int": 10})})
    quiet.view.playbook_end({"web1": HostStats(ok=1)}, 0)
    assert "CUSTOM STATS" not in quiet.text


def test_recap_columns_are_aligned_like_ansible() -> None:
    screen = Screen()
    screen.view.playbook_end({"web2": HostStats(ok=12, changed=3, failed=1, skipped=2, rescued=1, ignored=1),
                              "db1": HostStats(ok=2, unreachable=1)}, 2)
    assert screen.text == banner("PLAY RECAP") + (
        "db1                        : ok=2    changed=0    unreachable=1    failed=0    skipped=0    rescued=0"
        "    ignored=0   \n"
        "web2                       : ok=12   changed=3    unreachable=0    failed=1    skipped=2    rescued=1"
        "    ignored=1   \n"
        "\n")


def test_recap_colours_host_and_non_zero_counts() -> None:
    line = recap_line("web1", HostStats(ok=2, changed=1), color=True)
    assert line == ("\033[33mweb1\033[0m" + " " * 22 + " : \033[32mok=2   \033[0m \033[33mchanged=1   \033[0m "
                    "unreachable=0    failed=0    skipped=0    rescued=0    ignored=0   ")
    assert recap_line("web1", HostStats(failed=1), color=True).startswith("\033[31mweb1\033[0m")
    assert recap_line("web1", HostStats(ok=1), color=True).startswith("\033[32mweb1\033[0m")


def test_colour_follows_the_result() -> None:
    screen = Screen()
    screen.view.out.color = True
    screen.task(INSTALL, {"web1": result("changed"), "web2": result("failed", msg="x")})
    assert "\033[33mchanged: [web1]\033[0m\n" in screen.text
    assert '\033[31mfatal: [web2]: FAILED! => {"changed": false, "msg": "x"}\033[0m\n' in screen.text


def test_task_path_drops_the_column() -> None:
    assert task_path("roles/x/tasks/main.yml:12:5") == "roles/x/tasks/main.yml:12"
    assert task_path("site.yml") == "site.yml"


def test_a_failure_is_announced_as_ansible_core_2_19_does(tmp_path: Any) -> None:
    source = tmp_path / "site.yml"
    source.write_text("- hosts: all\n  tasks:\n    - block:\n        - name: breaks\n          fail:\n")
    task = TaskInfo(name="breaks", module="fail", position=f"{source}:4:11")
    screen = Screen()
    text = screen.task(task, {"web1": result("failed", msg="Failure in block", _failed_in="action"),
                              "web2": result("failed", msg="", _failed_in="action"),
                              "web3": result("failed", msg="Task failed: 'x' is undefined", _failed_in="task")})
    assert text.startswith(banner("TASK [breaks]") + (
        "[ERROR]: Task failed: Action failed: Failure in block\n"
        f"Origin: {source}:4:11\n"
        "\n"
        "2   tasks:\n"
        "3     - block:\n"
        "4         - name: breaks\n"
        "            ^ column 11\n"
        "\n"
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "Failure in block"}\n'))
    assert "[ERROR]: Task failed: Action failed.\n" in text
    assert "[ERROR]: Task failed: 'x' is undefined\n" in text


def test_an_item_failed_by_its_break_when_expression_says_so_in_ansible_core_2_21s_words() -> None:
    screen = Screen()
    screen.task(INSTALL, {"web1": result("failed", msg="boom", break_when_result="Error rendering expression: "
                                                                                  "division by zero")})
    assert failure_lines("A 'break_when' expression failed: Error rendering expression: division by zero") \
        in screen.text


def test_display_failed_stderr_sends_failures_and_their_errors_to_stderr() -> None:
    screen = Screen(options=DefaultOptions(display_failed_stderr=True))
    screen.task(INSTALL, {
        "web1": result("failed", msg="boom", _ignored=True),
        "web2": result("unreachable", msg="no route"),
        "web3": result("ok"),
    })
    assert screen.errors == failure_lines("Task failed: Module failed: boom") + (
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "boom"}\n'
        + failure_lines("Task failed: no route") +
        'fatal: [web2]: UNREACHABLE! => {"changed": false, "msg": "no route", "unreachable": true}\n')
    assert screen.text == banner("TASK [nginx : install nginx]") + "...ignoring\nok: [web3]\n"


def test_display_failed_stderr_sends_a_failed_item_to_stderr() -> None:
    screen = Screen(options=DefaultOptions(display_failed_stderr=True))
    items = [item("ok", 1), item("failed", 2, msg="bad")]
    screen.task(INSTALL, {"web1": result("failed", msg="One or more items failed", results=items)})
    assert screen.errors.endswith('failed: [web1] (item=2) => {"ansible_loop_var": "item", "changed": false, '
                                  '"item": 2, "msg": "bad"}\n')
    assert "(item=2)" not in screen.text and "ok: [web1] => (item=1)\n" in screen.text


def test_show_task_path_on_failure_precedes_the_fatal_line() -> None:
    screen = Screen(options=DefaultOptions(show_task_path_on_failure=True))
    text = screen.task(INSTALL, {"web1": result("failed", msg="boom"), "web2": result("ok")})
    assert text == banner("TASK [nginx : install nginx]") + failure_lines("Task failed: Module failed: boom") + (
        "task path: roles/nginx/tasks/main.yml:3\n"
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "boom"}\nok: [web2]\n')


def test_show_task_path_on_failure_precedes_a_failed_debug_loops_own_line_only() -> None:
    screen = Screen(options=DefaultOptions(show_task_path_on_failure=True))
    items = [item("failed", 1, msg="one", **SHOWN)]
    lines = screen.task(DEBUG, {"web1": result("failed", msg="One or more items failed", results=items)}).splitlines()
    assert lines.count(f"task path: {task_path(DEBUG.position)}") == 1
    assert lines[-2:] == [f"task path: {task_path(DEBUG.position)}",
                          'fatal: [web1]: FAILED! => {"msg": "One or more items failed"}']


def test_show_task_path_on_failure_is_not_repeated_from_vv() -> None:
    screen = Screen(options=DefaultOptions(show_task_path_on_failure=True), verbosity=2)
    text = screen.task(INSTALL, {"web1": result("failed", msg="boom")})
    assert text.count("task path: roles/nginx/tasks/main.yml:3\n") == 1  # the header's


def test_display_included_hosts_off_hides_the_included_lines_not_the_header() -> None:
    screen = Screen(options=DefaultOptions(display_included_hosts=False), hide=("ok", "skipped"))
    include = TaskInfo(name="include_tasks", module="include_tasks", position="p.yml:1:1")
    screen.view.task_start(include, ["web1"])
    screen.view.include("/srv/play/tasks/setup.yml", ["web1"])
    assert screen.text == banner("TASK [include_tasks]")


def test_result_indentation_indents_pretty_json() -> None:
    screen = Screen(options=DefaultOptions(result_indentation=2), verbosity=3)
    text = screen.task(INSTALL, {"web1": result("ok", rc=0)})
    assert text.endswith('ok: [web1] => {\n  "changed": false,\n  "rc": 0\n}\n')


def test_a_playbook_error_failing_the_host_is_shown_as_it_is_where_it_was_written(tmp_path: Any) -> None:
    # ansible-core 2.21's include_role naming no role: the error as it is, its Origin at the role's name
    source = tmp_path / "site.yml"
    source.write_text("- hosts: all\n  tasks:\n    - include_role:\n        name: nope\n")
    task = TaskInfo(name="include_role : nope", module="include_role", position=f"{source}:3:7")
    text = Screen().task(task, {"web1": result("failed", msg="The role 'nope' was not found in: /r",
                                               _failed_in="error", _failed_at=f"{source}:4:15")})
    assert text == banner("TASK [include_role : nope]") + (
        "[ERROR]: The role 'nope' was not found in: /r\n"
        f"Origin: {source}:4:15\n\n"
        "2   tasks:\n"
        "3     - include_role:\n"
        "4         name: nope\n"
        "                ^ column 15\n\n"
        'fatal: [web1]: FAILED! => {"changed": false, "msg": "The role \'nope\' was not found in: /r"}\n')
