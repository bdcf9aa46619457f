"""The garbage collector around start-up (runner.util.heap): held while a command loads its work, frozen and
running again once the workers are about to fork."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from runner.cli.common import report_errors
from runner.util.heap import release_collection, thaw_collection


@pytest.fixture(autouse=True)
def restore_collector() -> Iterator[None]:
    yield
    gc.unfreeze()
    gc.enable()


def test_a_command_body_runs_with_the_collector_held() -> None:
    seen: list[bool] = []

    @report_errors
    def body() -> int:
        seen.append(gc.isenabled())
        return 0

    with pytest.raises(SystemExit):
        body()
    assert seen == [False]
    assert gc.isenabled()  # a caller that stays (as these tests) gets it back


def test_releasing_freezes_what_was_built_and_collects_again() -> None:
    gc.disable()
    built = [{"kept": index} for index in range(1000)]
    release_collection()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= len(built)


def test_thawing_lets_the_frozen_objects_be_collected_again() -> None:
    release_collection()
    assert gc.get_freeze_count() > 0
    thaw_collection()
    assert gc.get_freeze_count() == 0
