"""A task argument whose template fails names the argument, in Ansible 2.19's words, before the cause."""

from __future__ import annotations

import pytest

from runner.executor.task_args import task_arguments
from runner.templating import Templar, TemplateError


def test_a_failing_argument_is_named_in_ansibles_words() -> None:
    templar = Templar(variables={"given": "x", "broken": "{{ sorry_not_defined }}"})
    assert task_arguments(templar, "debug", {"msg": "{{ given }}"}) == {"msg": "x"}
    with pytest.raises(TemplateError) as raised:
        task_arguments(templar, "debug", {"msg": "{{ broken }}", "verbosity": 0})
    assert raised.value.message.startswith("Task failed: Finalization of task args for 'ansible.builtin.debug' "
                                           "failed: Error "
                                           "while resolving value for 'msg': 'sorry_not_defined' is undefined")
    assert raised.value.undefined_name == "sorry_not_defined"


def test_argument_names_are_kept_as_written() -> None:
    """Ansible renders the values of task arguments, never their names: ``a=aval {{ "k=v" }}`` splits into a name
    that looks like the start of a template, and the task still gets it as written."""
    templar = Templar(variables={"given": "x"})
    assert task_arguments(templar, "echo", {'{{ "k': 'v" }}', "{{ given }}": "{{ given }}"}) == {
        '{{ "k': 'v" }}', "{{ given }}": "x"}
