"""TagFilter: which task tags --tags and --skip-tags select, as Ansible's evaluate_tags decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.compiler.tags import TagFilter


@pytest.mark.parametrize(("only", "skip", "tags", "selected"), [
    ([], [], [], True),
    ([], [], ["web"], True),
    ([], [], ["never"], False),
    ([], [], ["never", "debug"], False),
    (["web"], [], ["web", "db"], True),
    (["web"], [], ["db"], False),
    (["web"], [], [], False),
    (["web"], [], ["always"], True),
    (["web"], ["always"], ["always"], False),
    (["debug"], [], ["never", "debug"], True),
    (["never"], [], ["never"], True),
    (["all"], [], ["never", "x"], False),
    (["tagged"], [], ["x"], True),
    (["tagged"], [], [], False),
    (["untagged"], [], [], True),
    (["untagged"], [], ["x"], False),
    ([], ["web"], ["web"], False),
    ([], ["web"], ["always", "web"], False),  # skipping a tag skips it even beside always
    ([], ["web"], ["always"], True),
    ([], ["tagged"], ["x"], False),
    ([], ["untagged"], [], False),
    ([], ["all"], ["x"], False),
])
def test_tag_selection(only: list[str], skip: list[str], tags: list[str], selected: bool) -> None:
    assert TagFilter.of(only, skip).selects(tags) is selected


TEMPLATED = """\
- hosts: all
  vars:
    the_tags: [tag3]
    block_tags: "tag1, tag2"
  tasks:
    - name: listed
      debug:
      tags: "{{ the_tags }}"
    - block:
        - name: in block
          debug:
      tags: "{{ block_tags }}"
    - name: run time
      debug:
      tags: "{{ ansible_facts.tag }}"
"""


@pytest.mark.parametrize(("only", "skip", "kept"), [
    ([], [], ["listed", "in block", "run time"]),
    (["tag3"], [], ["listed"]),
    (["tag2"], [], ["in block"]),
    ([], ["tag1"], ["listed", "run time"]),
])
def test_templated_tags_are_rendered_with_what_is_known_when_compiling(tmp_path: Path, only: list[str],
                                                                        skip: list[str], kept: list[str]) -> None:
    # ansible-core renders tags before choosing tasks: a list gives its items, a string its comma-separated names;
    # one that needs the run's variables stays as written
    playbook = tmp_path / "site.yml"
    playbook.write_text(TEMPLATED)
    plan = Compiler(CompileOptions(tags=only, skip_tags=skip)).compile_playbooks([playbook])
    tasks = {task.name: task.tags for task in plan.tasks if task.kind not in ("block", "facts") and task.name}
    assert list(tasks) == kept
    assert tasks.get("listed", ["tag3"]) == ["tag3"]
    assert tasks.get("in block", ["tag1", "tag2"]) == ["tag1", "tag2"]


RESERVED = """\
- hosts: all
  tags: [untagged]
  tasks:
    - name: own
      debug:
      tags: tagged
    - block:
        - name: in block
          debug:
      tags: [all, web]
    - name: plain
      debug:
      tags: [web, never]
"""


def test_reserved_tag_names_are_warned_of_where_they_are_given(tmp_path: Path) -> None:
    # ansible-core 2.21 warns of each play, block or task whose tags name one of all, tagged and untagged; the
    # warnings travel in the plan (a cached one too) and are shown as the run starts
    playbook = tmp_path / "site.yml"
    playbook.write_text(RESERVED)
    plan = Compiler(CompileOptions()).compile_playbooks([playbook])
    firsts = [warning.split("\n")[0] for warning in plan.warnings]
    assert firsts == [f"Found reserved tagnames in tags: [{name!r}], we do not recommend doing this as it might give "
                      "unexpected results" for name in ("untagged", "tagged", "all")]
    assert [warning.split("\n")[1] for warning in plan.warnings] == [
        f"Origin: {playbook}:1:3", f"Origin: {playbook}:4:7", f"Origin: {playbook}:7:7"]
