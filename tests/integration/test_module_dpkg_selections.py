"""dpkg_selections on a test host: an installed package held and released (its selection put back after)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge

PACKAGE = "less"  # installed on every test host; only its selection changes


def selection(host: RemoteHost) -> str:
    return host.shell(f"dpkg --get-selections {PACKAGE}").split()[1]


@pytest.fixture
def restore(host: RemoteHost) -> Iterator[None]:
    before = selection(host)
    yield
    host.shell(f"echo '{PACKAGE} {before}' | dpkg --set-selections")


def test_hold_then_install(host: RemoteHost, restore: None) -> None:
    assert selection(host) == "install"
    first = converge(host, "dpkg_selections", {"name": PACKAGE, "selection": "hold"}, state=lambda: selection(host))
    assert selection(host) == "hold"
    assert (first["before"], first["after"]) == ("install", "hold")
    assert first["diff"]["after"] == f"{PACKAGE} hold\n"
    converge(host, "dpkg_selections", {"name": PACKAGE, "selection": "install"}, state=lambda: selection(host))
    assert selection(host) == "install"


def test_unknown_package_fails(host: RemoteHost) -> None:
    result = host.run("dpkg_selections", {"name": "provisioning-no-such-package", "selection": "hold"})
    assert result.get("failed") and "Failed to find package" in result["msg"], result
