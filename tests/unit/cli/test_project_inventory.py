"""The inventory a command loads: a source that does not exist or cannot be read is a warning, as in Ansible, and
an error only with any_unparsed_is_failed (that source) or unparsed_is_failed (no source read at all)."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.cli.project import load_hosts
from runner.config import load_config
from runner.errors import ParseError, UserError


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


def test_a_named_inventory_that_is_missing_is_a_warning_as_in_ansible(tmp_path: Path, env: dict[str, str],
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    config = load_config({"inventory": [str(tmp_path / "nope")]}, env=env, cwd=tmp_path)
    inventory = load_hosts(config, tmp_path)
    assert [host.name for host in inventory.get_hosts("all")] == []
    assert [host.name for host in inventory.get_hosts("localhost")] == ["localhost"]
    warnings = capsys.readouterr().err.splitlines()
    assert any(line.startswith(f"[WARNING]: Unable to parse {tmp_path / 'nope'} as an inventory source")
               for line in warnings)
    assert "[WARNING]: No inventory was parsed, only implicit localhost is available" in warnings


def test_a_named_inventory_that_is_missing_is_an_error_with_any_unparsed_is_failed(tmp_path: Path,
                                                                                   env: dict[str, str]) -> None:
    env["ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED"] = "yes"
    config = load_config({"inventory": [str(tmp_path / "nope")]}, env=env, cwd=tmp_path)
    with pytest.raises(ParseError, match="inventory source not found"):
        load_hosts(config, tmp_path)


def test_no_inventory_parsed_is_an_error_with_unparsed_is_failed(tmp_path: Path, env: dict[str, str]) -> None:
    env["ANSIBLE_INVENTORY_UNPARSED_FAILED"] = "yes"
    (tmp_path / "hosts").write_text("[web]\nweb1\n", encoding="utf-8")
    config = load_config({"inventory": [str(tmp_path / "hosts")]}, env=env, cwd=tmp_path)
    assert list(load_hosts(config, tmp_path).hosts) == ["web1"]
    config = load_config({"inventory": [str(tmp_path / "nope")]}, env=env, cwd=tmp_path)
    with pytest.raises(UserError, match="No inventory was parsed, please check your configuration and options"):
        load_hosts(config, tmp_path)
