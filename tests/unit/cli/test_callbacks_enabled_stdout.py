"""callbacks_enabled naming one of ansible-core's stdout callbacks (runner/cli/callback_plugins.py): ansible-core
skips it (stdout_callback alone chooses the view), so nothing of Ansible's is loaded for it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import runner.ansible_api.callback_plugins as plugins
from runner.cli.callback_plugins import other_plugin_callbacks
from runner.config import load_config


def test_ansible_cores_stdout_callbacks_in_callbacks_enabled_load_no_plugin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def loaded(*args: Any, **kwargs: Any) -> list[Any]:
        raise AssertionError("ansible-core's callback plugins were loaded")

    monkeypatch.setattr(plugins, "other_plugins", loaded)
    env = {"HOME": str(tmp_path), "ANSIBLE_CALLBACKS_ENABLED": "default,ansible.builtin.minimal,junit"}
    project: Any = SimpleNamespace(config=load_config(env=env, cwd=tmp_path))
    assert other_plugin_callbacks(project, [tmp_path], lambda message: None) is None
