"""The default view's settings (runner/cli/run.py) come from ansible-core's environment variables and ansible.cfg
keys of its default callback, with ansible-core's defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.callbacks.default_options import DefaultOptions
from runner.cli.run import _default_options
from runner.config import load_config
from runner.errors import OptionError


def test_defaults_are_ansible_cores_but_check_mode_markers(tmp_path: Path) -> None:
    assert _default_options(load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)) == DefaultOptions(
        display_failed_stderr=False,
        show_task_path_on_failure=False,
        display_included_hosts=True,
        check_mode_markers=True,
        result_indentation=4,
        yaml_line_width="default",
    )


def test_ansible_environment_variables_set_them(tmp_path: Path) -> None:
    env = {
        "HOME": str(tmp_path),
        "ANSIBLE_DISPLAY_FAILED_STDERR": "1",
        "ANSIBLE_SHOW_TASK_PATH_ON_FAILURE": "yes",
        "ANSIBLE_DISPLAY_INCLUDED_HOSTS": "0",
        "ANSIBLE_CHECK_MODE_MARKERS": "0",
        "ANSIBLE_CALLBACK_RESULT_INDENTATION": "2",
        "ANSIBLE_CALLBACK_YAML_LINE_WIDTH": "no-break",
    }
    assert _default_options(load_config(env=env, cwd=tmp_path)) == DefaultOptions(
        display_failed_stderr=True,
        show_task_path_on_failure=True,
        display_included_hosts=False,
        check_mode_markers=False,
        result_indentation=2,
        yaml_line_width="no-break",
    )


def test_ansible_cfg_keys_set_them(tmp_path: Path) -> None:
    (tmp_path / "ansible.cfg").write_text(
        "[defaults]\ncheck_mode_markers = false\ncallback_result_indentation = 3\n"
        "callback_result_yaml_line_width = terminal-width\n"
    )
    options = _default_options(load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path))
    assert (options.check_mode_markers, options.result_indentation, options.yaml_line_width) == (
        False,
        3,
        "terminal-width",
    )


def test_an_unknown_line_width_is_an_error_naming_the_choices(tmp_path: Path) -> None:
    with pytest.raises(
        OptionError, match="ANSIBLE_CALLBACK_YAML_LINE_WIDTH: expected one of default, no-break, terminal-width"
    ):
        load_config(env={"HOME": str(tmp_path), "ANSIBLE_CALLBACK_YAML_LINE_WIDTH": "wide"}, cwd=tmp_path)
