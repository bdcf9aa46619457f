"""Controller-side actions in a real run (tests/data/playbooks/controller_actions.yml): debug, set_fact, assert,
fail, pause, include_vars, add_host and group_by, and later plays on the groups they made."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts
HOSTS = ("host1", "host2")


@pytest.fixture(scope="module")
def run(inventory_path: Path) -> PlaybookRun:
    return run_playbook(inventory_path, "controller_actions.yml")


def test_the_run_ends_with_the_expected_failures_ignored(run: PlaybookRun) -> None:
    assert run.exit_code == 0, run.output
    assert run.stats["host1"]["ignored"] == 3 and run.stats["host2"]["ignored"] == 5, run.stats


def test_debug(run: PlaybookRun) -> None:
    assert run.msg("debug msg") == {"host1": "answer is 42 on host1", "host2": "answer is 42 on host2"}
    assert run.msg("debug default msg")["host1"] == "Hello world!"
    assert run.task("debug var")["host1"]["answer"] == 42
    assert run.task("debug var expression")["host1"]["answer * 2"] == 84
    assert run.task("debug undefined var")["host1"]["not_defined_anywhere"] == (
        "<< error 1 - 'not_defined_anywhere' is undefined >>")
    assert run.task("debug missing key")["host1"]["{'a': 1}.b"] == (
        "<< error 1 - object of type 'dict' has no attribute 'b' >>")
    # any other error fails the task, as in Ansible
    assert "unknown URL component" in run.task("debug var whose filter fails")["host1"]["msg"]
    hidden = run.task("debug verbosity")["host1"]
    assert hidden["skipped"] is True and hidden["skipped_reason"] == "Verbosity threshold not met."


def test_debug_verbosity_shows_with_enough_v(inventory_path: Path) -> None:
    verbose = run_playbook(inventory_path, "controller_actions.yml", "-vv", "--limit", "host1")
    assert verbose.msg("debug verbosity") == {"host1": "only with -vv"}


def test_set_fact(run: PlaybookRun) -> None:
    facts = run.task("set_fact")["host1"]["ansible_facts"]
    assert facts == {"color": "blue", "size": 43, "enabled": "yes"}  # ansible-core 2.19: a string stays one
    assert run.msg("read set_fact")["host1"] == "blue-43-round-yes-no-True"
    assert run.msg("read set_fact through hostvars")["host1"] == "blue"


def test_assert(run: PlaybookRun) -> None:
    assert run.msg("assert passes")["host1"] == "all good"
    assert run.msg("assert with a comma in a string condition")["host1"] == "All assertions passed"
    assert run.msg("assert quiet")["host1"] == "All assertions passed"
    failed = run.task("assert fails")["host1"]
    assert failed["failed"] is True and failed["msg"] == "answer 42 too small"
    assert failed["assertion"] == "answer > 100" and failed["evaluated_to"] is False


def test_fail(run: PlaybookRun) -> None:
    assert run.task("fail on host2")["host1"]["skipped"] is True
    refused = run.task("fail on host2")["host2"]
    assert refused["failed"] is True and refused["msg"] == "host2 refuses"
    assert run.task("fail default message")["host2"]["msg"] == "Failed as requested from task"


def test_pause(run: PlaybookRun) -> None:
    paused = run.task("pause")["host1"]
    assert paused["changed"] is False and paused["stdout"] == "Paused for 1.0 seconds"


def test_include_vars(run: PlaybookRun) -> None:
    loaded = run.task("include_vars file")["host1"]
    assert loaded["ansible_facts"] == {"app_port": 8080, "app_name": "shop"}
    assert loaded["ansible_included_var_files"][0].endswith("controller_vars/app.yml")
    from_dir = run.task("include_vars dir")["host1"]
    assert [Path(p).name for p in from_dir["ansible_included_var_files"]] == ["01-first.yml", "02-second.json"]
    assert run.msg("read included")["host1"] == "8080 shop one two from-second"
    missing = run.task("include_vars missing")["host1"]
    assert missing["failed"] is True and "Could not find or access 'controller_vars/nothing.yml'" in missing["msg"]


def test_add_host_and_a_play_on_its_group(run: PlaybookRun) -> None:
    assert run.task("add_host")["host1"]["changed"] is True  # the inventory gained a host
    added = run.task("add_host")["host1"]["add_host"]
    assert added == {"host_name": "host3", "groups": ["added_group", "extra_group"],
                     "host_vars": {"added_var": "from_add_host"}}
    assert run.msg("on added") == {"host3": "from_add_host added_group,extra_group,testhosts"}


def test_group_by_and_plays_on_the_group_and_its_parent(run: PlaybookRun) -> None:
    grouped = run.task("group_by")["host1"]
    assert grouped["add_group"] == "by-blue" and grouped["parent_groups"] == ["colours"]
    # changed when the host joins the group, as in Ansible; not when it is already in it
    assert grouped["changed"] is True and run.task("group_by again")["host1"]["changed"] is False
    assert set(run.msg("on grouped")) == set(HOSTS)
    assert run.msg("on grouped")["host1"].startswith("host1 by-blue,colours")
    assert sorted(run.msg("on parent")) == list(HOSTS)
