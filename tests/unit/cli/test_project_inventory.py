"""The inventory a command loads: a default inventory that does not exist leaves the implicit localhost, as in
Ansible; a source the user names that does not exist is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.cli.project import load_hosts
from runner.config import load_config
from runner.errors import ParseError


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """An environment with no configuration file to find and no inventory set."""
    return {"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}


def test_a_missing_default_inventory_leaves_the_implicit_localhost(tmp_path: Path, env: dict[str, str],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    config = load_config(env=env, cwd=tmp_path)
    if any(Path(source).exists() for source in config.inventory):
        pytest.skip("this machine has the default inventory")
    inventory = load_hosts(config, tmp_path)
    assert inventory.hosts == {}
    assert [host.name for host in inventory.get_hosts("localhost")] == ["localhost"]
    assert "No inventory was parsed, only implicit localhost is available" in capsys.readouterr().err


def test_a_named_inventory_that_is_missing_is_an_error(tmp_path: Path, env: dict[str, str]) -> None:
    config = load_config({"inventory": [str(tmp_path / "nope")]}, env=env, cwd=tmp_path)
    with pytest.raises(ParseError, match="inventory source not found"):
        load_hosts(config, tmp_path)
