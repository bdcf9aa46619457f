"""Choosing the executor (runner/executor/executor_choice.py): its spellings, and the Ray executor asked for where
Ray is not installed."""

from __future__ import annotations

import sys

import pytest

from runner.errors import ExitCode, OptionError
from runner.executor.executor_choice import ExecutorChoice, parse_executor, start_workers
from runner.executor.ray_pool import RAY_MISSING


@pytest.mark.parametrize(("text", "choice"), [
    (None, ExecutorChoice()),
    ("local", ExecutorChoice()),
    ("ray", ExecutorChoice("ray")),
    ("ray:auto", ExecutorChoice("ray", "auto")),
    ("ray://10.0.0.5:6379", ExecutorChoice("ray", "10.0.0.5:6379")),
    (" ray://head.internal:6379/ ", ExecutorChoice("ray", "head.internal:6379")),
])
def test_the_executor_spellings(text: str | None, choice: ExecutorChoice) -> None:
    assert parse_executor(text) == choice


@pytest.mark.parametrize("text", ["rai", "ray://", "ray://host", "ray://host:port", "ray:", "forked"])
def test_anything_else_is_an_option_error(text: str) -> None:
    with pytest.raises(OptionError, match="is not one of local, ray, ray:auto or ray://HOST:PORT") as raised:
        parse_executor(text)
    assert raised.value.exit_code == ExitCode.BAD_OPTIONS


def test_the_ray_executor_without_ray_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what an interpreter without Ray answers to ``import ray``
    with pytest.raises(OptionError) as raised:
        start_workers(parse_executor("ray:auto"), ["h1"], 5, context=None)  # type: ignore[arg-type]
    assert raised.value.message == RAY_MISSING
    assert "pip install 'provisioning[ray]'" in RAY_MISSING and raised.value.exit_code == ExitCode.BAD_OPTIONS
