"""set_fact's values read as ansible-core 2.19 reads them: an unquoted yes/no/on/off is a boolean (YAML 1.1), a
quoted one and a k=v one stay strings; elsewhere the loader keeps YAML 1.2's strings."""

from __future__ import annotations

import pickle
from pathlib import Path

from runner.compiler import CompileOptions, Compiler
from runner.loader.yaml import Yaml11Boolean, load_yaml_text

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - set_fact: {unquoted: yes, quoted: "yes", off_word: Off, text: y}
    - set_fact: kv=yes
    - debug: {msg: yes}
"""


def test_set_fact_reads_unquoted_words_as_booleans(tmp_path: Path) -> None:
    (tmp_path / "site.yml").write_text(PLAYBOOK)
    plan = Compiler(CompileOptions()).compile_playbooks([tmp_path / "site.yml"])
    first, kv, debug = (task.args for task in plan.tasks if task.kind == "task")
    assert first == {"unquoted": True, "quoted": "yes", "off_word": False, "text": "y"}
    assert kv == {"kv": "yes"}
    assert debug == {"msg": "yes"} and type(debug["msg"]) is Yaml11Boolean


def test_the_marker_travels_as_a_plain_string() -> None:
    value = load_yaml_text("a: on\n")["a"]
    assert isinstance(value, Yaml11Boolean) and value == "on" and value.value is True
    assert type(pickle.loads(pickle.dumps(value))) is str
