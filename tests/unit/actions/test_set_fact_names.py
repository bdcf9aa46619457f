"""The names set_fact accepts for variables, and Ansible's words for those it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from runner.actions.set_fact import variable_name_problem


@pytest.mark.parametrize("name", ["a", "_private", "web_port2", "Camel"])
def test_identifiers_are_variable_names(name: str) -> None:
    assert variable_name_problem(name) is None


@pytest.mark.parametrize(("name", "message"), [
    ("true", "Invalid variable name 'true'."),  # Jinja2 reads it as the boolean
    ("None", "Invalid variable name 'None'."),
    ("not", "Invalid variable name 'not'."),
    ("bad name", "Invalid variable name 'bad name'."),
    ("café", "Invalid variable name 'café'."),  # ASCII only, as in Ansible
    (1, "Invalid variable name '1' of type 'int'."),
    ([1], "Invalid variable name of type 'list'."),
])
def test_other_names_are_refused_as_ansible_refuses_them(name: Any, message: str) -> None:
    assert variable_name_problem(name).startswith(message)
