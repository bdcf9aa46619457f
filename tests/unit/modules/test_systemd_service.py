"""systemd_service is ansible-core's name for the systemd module: both names resolve to one file, so they take
the same arguments and the agent runs the same code (the same source, by hash). How it reads a unit's
enablement."""

from __future__ import annotations

import pytest

from modules import _services as services
from runner.module_index import ModuleIndex


def test_both_names_are_one_module() -> None:
    index = ModuleIndex()
    systemd, service = index.get("systemd"), index.get("ansible.builtin.systemd_service")
    assert systemd.source.digest == service.source.digest
    assert systemd.path.resolve() == service.path.resolve()
    assert systemd.argument_spec == service.argument_spec
    assert set(service.argument_spec["name"]["aliases"]) == {"service", "unit"}
    assert set(service.argument_spec["daemon_reload"]["aliases"]) == {"daemon-reload"}


class FakeSystemctl:
    """What ``systemctl is-enabled UNIT -l`` answers, for SystemdUnit.enabled."""

    def __init__(self, rc: int, out: str):
        self.answer = (rc, out, "")
        self.commands: list[list[str]] = []

    def get_bin_path(self, name: str, required: bool = False) -> str:
        return "/bin/" + name

    def run_command(self, argv: list[str], **_: object) -> tuple[int, str, str]:
        self.commands.append(argv)
        return self.answer


def test_enabled_is_read_as_ansible_core_reads_is_enabled_l(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "systemd_runs", lambda: True)
    cases = {(0, "enabled\n"): True, (0, "static\n"): True, (0, "alias\n"): False, (0, "enabled-runtime\n"): False,
             (0, "indirect\n"): False, (0, "indirect\n  /etc/systemd/system/sockets.target.wants/d.socket\n"): True,
             (1, "disabled\n"): False}
    for (rc, out), enabled in cases.items():
        fake = FakeSystemctl(rc, out)
        assert services.SystemdUnit(fake, "d").enabled() is enabled, out
        assert fake.commands[-1][1:] == ["is-enabled", "d.service", "-l"]
