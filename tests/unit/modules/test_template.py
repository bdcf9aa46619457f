"""template's rendering on the controller: the task's variables, ansible_managed and the template variables,
Jinja2 options, and errors that name the template (no host needed)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest

from runner.actions.arguments import ActionFailed
from runner.actions.context import ActionContext
from runner.actions.run_state import DetachedRunState
from runner.actions.template import render, rendered_file
from runner.module_index import ModuleIndex
from runner.templating import ANSIBLE_MANAGED, Templar

DEFAULTS = {"dest": "/etc/app.conf", "trim_blocks": True, "lstrip_blocks": False, "newline_sequence": "\n",
            "block_start_string": "{%", "block_end_string": "%}", "variable_start_string": "{{",
            "variable_end_string": "}}", "comment_start_string": None, "comment_end_string": None}


def rendered(tmp_path: Path, text: str, task_vars: dict[str, Any] | None = None, **args: Any) -> str:
    src = tmp_path / "t.j2"
    src.write_text(text)
    ctx = ActionContext(host="web1", module=ModuleIndex().get("template"), args={}, state=DetachedRunState(),
                        templar=Templar(),
                        search_paths=[tmp_path], task_vars=task_vars or {})
    return render(ctx, src, {**DEFAULTS, **args})


def test_task_variables_and_template_variables(tmp_path: Path) -> None:
    text = "{{ ansible_managed }}|{{ port }}|{{ template_path | basename }}|{{ template_destpath }}|{{ template_uid }}"
    assert rendered(tmp_path, text, {"port": 80}) == f"{ANSIBLE_MANAGED}|80|t.j2|/etc/app.conf|root"
    assert rendered(tmp_path, "{{ ansible_managed }}", {"ansible_managed": "mine"}) == "mine"
    assert rendered(tmp_path, "{{ template_run_date.year > 2000 }}") == "True"


def test_blocks_are_trimmed_and_options_apply(tmp_path: Path) -> None:
    text = "{% for x in [1, 2] %}\n  {% if x %}\nv{{ x }}\n  {% endif %}\n{% endfor %}\n"
    assert rendered(tmp_path, text) == "  v1\n    v2\n  \n"  # ends with its source's newline, as in Ansible
    assert rendered(tmp_path, text, lstrip_blocks=True) == "v1\nv2\n"
    assert rendered(tmp_path, "a\nb\n", newline_sequence="\r\n") == "a\r\nb\r\n"
    assert rendered(tmp_path, "<<x>> {{ y }}", {"x": 1}, variable_start_string="<<", variable_end_string=">>") == (
        "1 {{ y }}")


def test_an_undefined_variable_names_the_template(tmp_path: Path) -> None:
    with pytest.raises(ActionFailed, match=r"t\.j2: .*'missing' is undefined"):
        rendered(tmp_path, "{{ missing }}")


def test_the_result_is_one_inline_file_for_the_copy_module(tmp_path: Path) -> None:
    src = tmp_path / "t.j2"
    src.write_text("x")
    src.chmod(0o640)
    data = "é\n".encode()
    assert rendered_file(src, data) == {"path": "t.j2", "checksum": hashlib.sha1(data).hexdigest(), "size": 3,
                                        "mode": 0o640, "content": "é\n"}
    assert "content_b64" in rendered_file(src, b"\xff\x00")
