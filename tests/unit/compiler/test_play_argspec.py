"""The play keyword validate_argspec (ansible-core 2.20): the validation task it adds, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError

META = """\
argument_specs:
  Setup:
    options:
      required_str:
        required: true
        type: str
"""


def compile_play(tmp_path: Path, play: str, *, meta: str | None = META, **options: object) -> list[tuple[str, ...]]:
    playbook = tmp_path / "site.yml"
    playbook.write_text(play)
    if meta is not None:
        (tmp_path / "site.meta.yml").write_text(meta)
    plan = Compiler(CompileOptions(**options)).compile_playbooks([playbook])  # type: ignore[arg-type]
    return [(task.module, task.name or "", *task.tags) for task in plan.tasks]


def test_true_validates_against_the_spec_named_as_the_play_right_after_fact_gathering(tmp_path: Path) -> None:
    tasks = compile_play(tmp_path, "- name: Setup\n  hosts: all\n  validate_argspec: true\n  tasks:\n    - debug:\n")
    assert tasks == [
        ("setup", "Gathering Facts", "always"),
        ("validate_argument_spec", "Validating arguments against arg spec Setup", "always"),
        ("debug", ""),
    ]


def test_a_name_templated_with_extra_vars_and_a_play_with_tags(tmp_path: Path) -> None:
    play = "- hosts: all\n  gather_facts: false\n  tags: [web]\n  validate_argspec: '{{ spec }}'\n"
    tasks = compile_play(tmp_path, play, extra_vars={"spec": "Setup"})
    assert tasks == [("validate_argument_spec", "Validating arguments against arg spec Setup", "web")]
    assert compile_play(tmp_path, play, extra_vars={"spec": "Setup"}, skip_tags=["web"]) == []


@pytest.mark.parametrize("value", ["false", "'{{ omit }}'", "'{{ off }}'"])
def test_off_or_omitted_adds_nothing(tmp_path: Path, value: str) -> None:
    play = f"- hosts: all\n  gather_facts: false\n  validate_argspec: {value}\n"
    assert compile_play(tmp_path, play, meta=None, extra_vars={"off": False}) == []


@pytest.mark.parametrize(
    ("play", "meta", "message"),
    [
        (
            "- hosts: all\n  validate_argspec: true\n",
            META,
            "A play name is required when validate_argspec is True. Alternatively, set validate_argspec to the name of "
            "an argument spec.",
        ),
        (
            "- name: Setup\n  hosts: all\n  validate_argspec: true\n",
            None,
            "A playbook meta file is required. Considered:\n  - {dir}/site.meta.yml\n  - {dir}/site.meta.yaml\n"
            "  - {dir}/site.meta.json\n  - {dir}/site.meta",
        ),
        (
            "- hosts: all\n  validate_argspec: Other\n",
            META,
            "No argument spec named 'Other' in {dir}/site.meta.yml. Minimally expected:\nargument_specs:\n  Other:\n"
            "    options: {{}}\n",
        ),
        (
            "- hosts: all\n  validate_argspec: '{{ nowhere }}'\n",
            META,
            "Error processing keyword 'validate_argspec': 'nowhere' is undefined",
        ),
        (
            "- hosts: all\n  validate_argspec: 3\n",
            META,
            "validate_argspec must be a boolean or string, not <class 'int'>",
        ),
    ],
)
def test_what_ansible_core_refuses_is_a_compile_error_in_its_words(
    tmp_path: Path, play: str, meta: str | None, message: str
) -> None:
    with pytest.raises(UserError) as error:
        compile_play(tmp_path, play, meta=meta)
    assert message.format(dir=tmp_path) in str(error.value)
