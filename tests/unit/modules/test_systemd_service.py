"""systemd_service is ansible-core's name for the systemd module: both names resolve to one file, so they take
the same arguments and the agent runs the same code (the same source, by hash)."""

from __future__ import annotations

from runner.module_index import ModuleIndex


def test_both_names_are_one_module() -> None:
    index = ModuleIndex()
    systemd, service = index.get("systemd"), index.get("ansible.builtin.systemd_service")
    assert systemd.source.digest == service.source.digest
    assert systemd.path.resolve() == service.path.resolve()
    assert systemd.argument_spec == service.argument_spec
    assert set(service.argument_spec["name"]["aliases"]) == {"service", "unit"}
    assert set(service.argument_spec["daemon_reload"]["aliases"]) == {"daemon-reload"}
