"""A task's module arguments from what it wrote (runner/plan/module_args.py): ``k=v`` text read as ansible-core
reads it for the module it goes to."""

from __future__ import annotations

from runner.plan.module_args import module_arguments


def test_only_a_command_lines_free_form_takes_the_words_that_are_not_its_options() -> None:
    assert module_arguments("echo a=b chdir=/tmp", None, "_raw_params") == {"_raw_params": "echo a=b",
                                                                          "chdir": "/tmp"}
    # include_vars' free form is a file name; its k=v words are its options
    assert module_arguments("dir=vars depth=1", None, "file") == {"dir": "vars", "depth": "1"}
    assert module_arguments("vars/app.yml name=app", None, "file") == {"file": "vars/app.yml", "name": "app"}
