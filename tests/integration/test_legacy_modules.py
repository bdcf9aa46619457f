"""Library modules of Ansible's older kinds run as ansible-core runs them: an old-style script reads key=value
pairs, a WANT_JSON one a JSON file, a binary one a JSON file; each prints its result as JSON. On the controller
itself (local connection), through the agent as on any host."""

from __future__ import annotations

import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.support.local_project import play_locally, write_files
from tests.support.playbook_run import PlaybookRun

BINARY_SOURCE = r"""
#include <stdio.h>
int main(int argc, char **argv) {
    FILE *args = fopen(argv[1], "r");
    long size = 0;
    if (args) { fseek(args, 0, SEEK_END); size = ftell(args); fclose(args); }
    printf("{\"changed\": true, \"args_bytes\": %ld, \"argc\": %d}\n", size, argc);
    return 0;
}
"""

LIBRARY = {
    "library/hello_old": """\
        #!/bin/sh
        . "$1"
        echo "{\\"changed\\": false, \\"greeting\\": \\"hello $name\\", \\"check\\": \\"$_ansible_check_mode\\"}"
        """,
    "library/hello_json": """\
        #!/bin/sh
        # WANT_JSON
        echo "text before the result is ignored"
        echo "{\\"changed\\": true, \\"args\\": $(cat "$1")}"
        """,
    "library/old_python.py": """\
        #!/usr/bin/python
        import json, shlex, sys
        args = dict(item.split("=", 1) for item in shlex.split(open(sys.argv[1]).read()))
        print(json.dumps({"changed": False, "who": args["who"], "python": sys.version_info[0]}))
        """,
    "library/silent": """\
        #!/bin/sh
        echo "no JSON here" >&2
        exit 3
        """,
    "library/no_interpreter": "echo hi\n",
}


def test_old_style_want_json_and_python_scripts(tmp_path: Path) -> None:
    write_files(tmp_path, LIBRARY)
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: old
              hello_old: name="big world"
            - name: old in check mode
              hello_old: name=x
              check_mode: true
            - name: json
              hello_json: {x: 1, y: [a, b]}
            - name: python
              old_python: who=me
            - name: silent
              silent:
              ignore_errors: true
            - name: no interpreter
              no_interpreter:
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert run.task("old")["localhost"]["greeting"] == "hello big world"
    assert run.task("old")["localhost"]["check"] == "False"
    assert run.task("old in check mode")["localhost"]["check"] == "True"
    json_result = run.task("json")["localhost"]
    # The module's echo of its arguments shows the task's only: Ansible strips its internal keys from results.
    assert json_result["changed"] is True and json_result["args"] == {"x": 1, "y": ["a", "b"]}
    assert run.task("python")["localhost"]["who"] == "me"
    silent = run.task("silent")["localhost"]
    assert silent["failed"] and silent["msg"].startswith("MODULE FAILURE") and silent["rc"] == 3
    assert "no JSON here" in silent["module_stderr"]
    assert run.task("no interpreter")["localhost"]["msg"] == "module (no_interpreter) is missing interpreter line"


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler to build a binary module")
def test_a_binary_module_gets_a_json_arguments_file(tmp_path: Path) -> None:
    (tmp_path / "library").mkdir()
    (tmp_path / "module.c").write_text(BINARY_SOURCE)
    subprocess.run(["cc", "-o", str(tmp_path / "library" / "counter"), str(tmp_path / "module.c")], check=True,
                   timeout=120)
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: binary
              counter: {a: 1}
        """)
    assert run.exit_code == 0, run.output
    result = run.task("binary")["localhost"]
    assert result["changed"] is True and result["argc"] == 2 and result["args_bytes"] > len('{"a": 1}')


def play_tasks(tmp_path: Path, tasks: str) -> PlaybookRun:
    """Run ``tasks`` (a YAML list, indented as written below) in a play on localhost."""
    return play_locally(tmp_path, "- hosts: localhost\n  gather_facts: false\n  tasks:\n" + textwrap.indent(
        textwrap.dedent(tasks), "    "))


def test_a_library_modules_extension_is_not_part_of_its_name(tmp_path: Path) -> None:
    write_files(tmp_path, {"library/helloworld.sh": LIBRARY["library/hello_old"]})
    run = play_tasks(tmp_path, """
        - name: hello
          helloworld: name=you
        """)
    assert run.exit_code == 0, run.output
    assert run.task("hello")["localhost"]["greeting"] == "hello you"


def test_a_play_roles_library_modules_serve_the_plays_own_tasks(tmp_path: Path) -> None:
    # Ansible loads a play's roles before its tasks: their library/ modules are known to the play's tasks,
    # and of two roles with a module of the same name, the first listed wins.
    located = '#!/bin/sh\necho "{\\"changed\\": false, \\"location\\": \\"%s\\"}"\n'
    write_files(tmp_path, {
        "roles/first/library/where.sh": located % "first",
        "roles/first/tasks/main.yml": "- debug: msg=first\n",
        "roles/second/library/where": located % "second",
        "roles/second/library/only_second": located % "second only",
        "roles/second/tasks/main.yml": "- debug: msg=second\n",
    })
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          roles: [first, {role: second}]
          tasks:
            - name: where
              where:
            - name: only second
              only_second:
        """)
    assert run.exit_code == 0, run.output
    assert run.task("where")["localhost"]["location"] == "first"
    assert run.task("only second")["localhost"]["location"] == "second only"


def test_a_deprecated_library_module_answers_to_its_name_without_the_underscore(tmp_path: Path) -> None:
    write_files(tmp_path, {"library/_oldname.py": LIBRARY["library/old_python.py"]})
    (tmp_path / "library" / "_linked.py").symlink_to("_oldname.py")
    run = play_tasks(tmp_path, """
        - name: deprecated
          oldname: who=me
        - name: linked
          linked: who=you
        """)
    assert run.exit_code == 0, run.output
    assert run.task("deprecated")["localhost"]["who"] == "me"
    assert run.task("linked")["localhost"]["who"] == "you"


def test_text_after_a_modules_json_is_warned_about_and_text_before_it_ignored(tmp_path: Path) -> None:
    write_files(tmp_path, {"library/junky.py": """\
        #!/usr/bin/python
        print("junk before")
        print('{"changed": false, "source": "user"}')
        print("junk after")
        """})
    run = play_tasks(tmp_path, """
        - name: junky
          junky:
        - name: junky in the background
          junky:
          async: 10
          poll: 1
        """)
    assert run.exit_code == 0, run.output
    for task in ("junky", "junky in the background"):
        result = run.task(task)["localhost"]
        assert result["source"] == "user"
        assert result["warnings"] == ["Module invocation had junk after the JSON data: junk after"]
