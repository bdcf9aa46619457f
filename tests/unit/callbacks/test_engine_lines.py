"""``N plays in PATH`` and ``META: ...`` are ansible-core's engine's lines, not its stdout callback's: at ``-vv``
they are on stdout whatever the stdout callback, as ansible-playbook prints them."""

from __future__ import annotations

import io
import json

import pytest

from runner.callbacks import make_callbacks
from runner.callbacks.base import PlayInfo, TaskInfo

END_PLAY = TaskInfo(name="meta", module="meta", position="site.yml:5:7")


def _run(stdout_callback: str, verbosity: int) -> str:
    out = io.StringIO()
    callbacks = make_callbacks(stdout_callback, [], verbosity, False, True, stream=out)
    callbacks.playbook_start("/srv/play/site.yml", plays=2)
    callbacks.play_start(PlayInfo(name="web", pattern="web", position="site.yml:1:3"), ["web1"])
    callbacks.task_start(END_PLAY, ["web1"])
    callbacks.meta_result(END_PLAY, "web1", "ending play for web1")
    callbacks.playbook_end({}, 0)
    return out.getvalue()


@pytest.mark.parametrize("stdout_callback", ["default", "minimal", "oneline", "json", "yaml"])
def test_vv_shows_the_engines_lines_with_any_stdout_callback(stdout_callback: str) -> None:
    text = _run(stdout_callback, 2)
    assert text.count("2 plays in /srv/play/site.yml\n") == 1
    assert text.count("META: ending play for web1\n") == 1


def test_the_meta_line_follows_its_task_header_and_the_count_the_playbook_banner() -> None:
    text = _run("default", 2)
    assert text.index("PLAYBOOK: site.yml") < text.index("2 plays in") < text.index("PLAY [web]")
    assert text.index("TASK [meta]") < text.index("task path: site.yml:5") < text.index("META: ending play")


def test_the_json_document_follows_the_engines_lines_whole() -> None:
    """As with ansible.posix.json: the -vv lines come first, the document is printed whole at the end."""
    text = _run("json", 2)
    document = text[text.index("\n{") + 1 :]
    assert json.loads(document)["plays"][0]["play"]["name"] == "web"


@pytest.mark.parametrize("stdout_callback", ["default", "minimal", "json"])
def test_below_vv_there_are_none(stdout_callback: str) -> None:
    text = _run(stdout_callback, 1)
    assert "plays in" not in text and "META" not in text
