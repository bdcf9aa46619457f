"""A collection's strategy plugin that only subclasses one of ansible-core's runs as that strategy, with
ansible-core's deprecation warning; one that changes it, or cannot be found, is a clear error."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from runner.ansible_api.strategy_plugins import DEPRECATION, resolve_strategy
from runner.errors import UserError


def _collection(tmp_path: Path, name: str, source: str) -> tuple[Path, ...]:
    folder = tmp_path / "ansible_collections" / "ns" / "col" / "plugins" / "strategy"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.py").write_text(source)
    return (tmp_path,)


@pytest.mark.parametrize(("source", "expected"), [
    ("from ansible.plugins.strategy.linear import StrategyModule as Linear\n\n"
     "class StrategyModule(Linear):\n    ...\n", "linear"),
    ("from ansible.plugins.strategy import free\n\n"
     "class StrategyModule(free.StrategyModule):\n    '''Free, by another name.'''\n", "free"),
    ("import ansible.plugins.strategy.host_pinned as pinned\n\n"
     "class StrategyModule(pinned.StrategyModule):\n    pass\n", "host_pinned"),
])
def test_a_plugin_that_only_subclasses_runs_as_that_strategy(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                             source: str, expected: str) -> None:
    paths = _collection(tmp_path, f"by_{expected}", source)
    assert resolve_strategy(f"ns.col.by_{expected}", paths) == expected
    assert f"[DEPRECATION WARNING]: {DEPRECATION}" in capsys.readouterr().err


def test_builtin_names_need_no_plugin(capsys: pytest.CaptureFixture[str]) -> None:
    assert resolve_strategy("ansible.builtin.free", ()) == "free"
    assert resolve_strategy("linear", ()) == "linear"
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize(("source", "message"), [
    ("from ansible.plugins.strategy.linear import StrategyModule as Linear\n\n"
     "class StrategyModule(Linear):\n    def run(self, iterator, play_context):\n        return 0\n",
     "changes ansible-core's linear strategy (run), which needs ansible-core's executor"),
    ("from ansible.plugins.strategy import StrategyBase\n\nclass StrategyModule(StrategyBase):\n    ...\n",
     "must subclass the StrategyModule of one of ansible-core's strategies"),
    ("class Other:\n    ...\n", "defines no StrategyModule class"),
    ("class StrategyModule(:\n", "does not parse"),
])
def test_a_plugin_this_runner_cannot_run_is_refused(tmp_path: Path, source: str, message: str) -> None:
    paths = _collection(tmp_path, "custom", source)
    with pytest.raises(UserError, match=re.escape(message)):
        resolve_strategy("ns.col.custom", paths)


def test_a_missing_plugin_says_where_it_was_looked_for(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=re.escape("no plugins/strategy/gone.py in the collection ns.col")):
        resolve_strategy("ns.col.gone", (tmp_path,))
    with pytest.raises(UserError, match="unknown strategy 'fast'"):
        resolve_strategy("fast", (tmp_path,))
