"""Keywords that pick one of a few words or name a variable, also given as templates (``strategy``, ``order``,
``loop_var``), and the validators behind them staying picklable for the models' schema cache."""

from __future__ import annotations

import io
import pickle

import pytest
from pydantic import ValidationError

from runner.models.play import Play
from runner.models.task import LoopControl
from runner.util import model_cache


@pytest.mark.parametrize("strategy", ["free", "{{ test_strategy | default('linear') }}"])
def test_a_word_or_a_template_is_accepted(strategy: str) -> None:
    assert Play.model_validate({"hosts": "all", "strategy": strategy}).strategy == strategy


def test_another_word_is_refused_naming_the_choices() -> None:
    with pytest.raises(ValidationError, match="expected 'linear', 'free' or 'host_pinned', got 'fastest'"):
        Play.model_validate({"hosts": "all", "strategy": "fastest"})


def test_a_loop_variable_may_be_a_template_but_not_a_bad_name() -> None:
    assert LoopControl.model_validate({"loop_var": "{{ name }}"}).loop_var == "{{ name }}"
    with pytest.raises(ValidationError, match="Invalid variable name 'my-item'"):
        LoopControl.model_validate({"loop_var": "my-item"})


@pytest.mark.parametrize("model", [Play, LoopControl])
def test_their_schemas_pickle_for_the_cache(model: type) -> None:
    """A lambda or a nested function in a validator would make the cache's write fail (silently)."""
    buffer = io.BytesIO()
    model_cache._SchemaPickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(model_cache._schema_and_config(model))
    assert buffer.getvalue()


def test_a_debugger_kept_off_is_accepted_and_any_other_refused() -> None:
    from runner.models.task import Task

    for value in (None, "never"):
        assert Task.model_validate({"debug": {"msg": "x"}, "debugger": value}).debugger == value
    with pytest.raises(ValidationError, match="the task debugger is not supported"):
        Task.model_validate({"debug": {"msg": "x"}, "debugger": "on_failed"})
    with pytest.raises(ValidationError, match="the task debugger is not supported"):
        Play.model_validate({"hosts": "all", "debugger": "always"})
