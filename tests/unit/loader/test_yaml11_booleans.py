"""YAML is read as Ansible reads it (PyYAML's YAML 1.1 resolver): an unquoted yes/no/on/off in any of its three
cases is a boolean everywhere (vars files, task arguments, inventory), a quoted one stays a string, and words YAML
1.1's resolver leaves alone (y, n, yEs) stay strings."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.loader.yaml import load_yaml_text


@pytest.mark.parametrize("word, value", [
    ("yes", True), ("Yes", True), ("YES", True), ("on", True), ("On", True), ("ON", True),
    ("no", False), ("No", False), ("NO", False), ("off", False), ("Off", False), ("OFF", False),
    ("true", True), ("False", False),
])
def test_unquoted_words_are_booleans(word: str, value: bool) -> None:
    assert load_yaml_text(f"a: {word}\n")["a"] is value


@pytest.mark.parametrize("text", ['"yes"', "'no'", "y", "n", "yEs", "nO", "!!str on"])
def test_quoted_and_other_words_stay_strings(text: str) -> None:
    loaded = load_yaml_text(f"a: {text}\n")["a"]
    assert isinstance(loaded, str) and loaded == text.strip("'\"").removeprefix("!!str ")


def test_a_list_of_country_codes_reads_as_ansible_reads_it() -> None:
    assert load_yaml_text("[NO, SE, 'NO']\n") == [False, "SE", "NO"]


PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - set_fact: {unquoted: yes, quoted: "yes", off_word: Off, text: y}
    - set_fact: kv=yes
    - debug: {msg: yes}
"""


def test_task_arguments_read_unquoted_words_as_booleans(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    first, kv, debug = (task.args for task in plan.tasks if task.kind == "task")
    assert first == {"unquoted": True, "quoted": "yes", "off_word": False, "text": "y"}
    assert kv == {"kv": "yes"}  # k=v text is a string, as Ansible's parser leaves it
    assert debug == {"msg": True}
