"""When a playbook run starts the connection keeper before it compiles (so the keeper's start overlaps the
compile): only when it keeps its connections and will most likely connect over SSH."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.cli import keeper
from runner.config import load_config
from runner.connection.keeper import start


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    calls: list[float] = []
    monkeypatch.setattr(start, "start_ahead", lambda persist, directory=None, fork=None: calls.append(persist))
    return calls


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """No configuration file to find and no inventory set."""
    return {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}


@pytest.mark.parametrize(
    ("overrides", "options", "expected"),
    [
        ({"persist": 30}, {}, [30.0]),
        ({"persist": 0}, {}, []),  # connections not kept: no keeper at all
        ({"persist": 30}, {"connection": "local"}, []),
    ],
)
def test_a_run_with_an_inventory_starts_the_keeper_ahead(
    tmp_path: Path,
    env: dict[str, str],
    started: list[float],
    overrides: dict[str, object],
    options: dict[str, str],
    expected: list[float],
) -> None:
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    web1:\n")
    config = load_config({**overrides, "inventory": [str(inventory)]}, env=env, cwd=tmp_path)
    keeper.start_keeper_ahead(config, options)
    assert started == expected


def test_a_run_without_an_inventory_reaches_only_localhost_and_starts_none(
    tmp_path: Path, env: dict[str, str], started: list[float]
) -> None:
    config = load_config({"persist": 30}, env=env, cwd=tmp_path)
    if any(Path(source).exists() for source in config.inventory):
        pytest.skip("this machine has the default inventory")
    keeper.start_keeper_ahead(config, {})
    assert started == []


def test_a_host_list_of_localhost_alone_starts_none(tmp_path: Path, env: dict[str, str], started: list[float]) -> None:
    config = load_config({"persist": 30, "inventory": ["localhost,"]}, env=env, cwd=tmp_path)
    keeper.start_keeper_ahead(config, {})
    assert started == []
    config = load_config({"persist": 30, "inventory": ["localhost,web1"]}, env=env, cwd=tmp_path)
    keeper.start_keeper_ahead(config, {})
    assert started == [30.0]
