"""service and systemd planning: what each state does to a running or stopped service, and the diff."""

from __future__ import annotations

from modules._services import ServiceChange, parse_show, plan_state, unit_name


def control(action: str) -> list[str]:
    return ["/etc/init.d/app", action]


def planned(state: str, running: bool, sleep: int | None = None) -> list[str]:
    change = ServiceChange("app")
    plan_state(change, running, state, control, sleep)
    return [what for what, _ in change.actions]


def test_started_and_stopped_are_idempotent() -> None:
    assert planned("started", running=False) == ["start"] and planned("started", running=True) == []
    assert planned("stopped", running=True) == ["stop"] and planned("stopped", running=False) == []


def test_restart_and_reload_always_act() -> None:
    assert planned("restarted", running=True) == ["restart"]
    assert planned("restarted", running=True, sleep=2) == ["stop", "sleep", "start"]
    assert planned("reloaded", running=True) == ["reload"] and planned("reloaded", running=False) == ["start"]


def test_diff_names_what_changed() -> None:
    change = ServiceChange("app")
    plan_state(change, False, "started", control)
    assert change.diff == {"before": {"name": "app", "state": "stopped"}, "after": {"name": "app", "state": "started"}}


def test_systemd_helpers() -> None:
    assert unit_name("nginx") == "nginx.service" and unit_name("docker.socket") == "docker.socket"
    assert unit_name("getty@tty1.service") == "getty@tty1.service" and unit_name("app.v2") == "app.v2.service"
    assert parse_show("ActiveState=active\nExecStart={ path=/x }\nDescription=a=b\n") == {
        "ActiveState": "active", "ExecStart": "{ path=/x }", "Description": "a=b"}
