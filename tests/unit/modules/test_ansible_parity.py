"""Each module of ours with an ansible.builtin twin accepts every parameter and alias ansible-core's module does.

ansible-core's side is read at test time from the ansible-core the test plugin provides (its documentation with
doc fragments, and the argument spec its main() builds: tests/support/ansible_module_options.py), so a playbook
written for ansible-core never meets "unsupported parameter" here. A missing name fails its module's test, naming
it. Parameters only Ansible's own action plugins pass to their modules are left out (``ACTION_INTERNAL``).
"""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner

from runner.cli.doc import main as doc_main
from runner.module_index import ModuleIndex, ModuleInfo
from tests.support.ansible_module_options import ACTION_INTERNAL, ansible_module_options

INDEX = ModuleIndex()
FREE_FORM_NAMES = {"free_form", "free-form", "_raw_params"}
# ansible.builtin modules not here yet, with why; the test fails on any other, and on one of these once it exists.
KNOWN_MISSING: dict[str, str] = {}


@pytest.fixture(scope="module")
def ansible_options(ansible_core: None) -> dict[str, dict[str, list[str]]]:
    return ansible_module_options(sys.executable)


def _accepted(info: ModuleInfo) -> set[str]:
    names: set[str] = set()
    for name, option in info.argument_spec.items():
        names.add(name)
        names.update(option.get("aliases", ()))
    if info.free_form or "_raw_params" in names:
        names |= FREE_FORM_NAMES
    return names


@pytest.mark.parametrize("name", INDEX.names())
def test_module_accepts_every_parameter_of_its_ansible_builtin_twin(
        name: str, ansible_options: dict[str, dict[str, list[str]]]) -> None:
    info = INDEX.get(name)
    if name not in ansible_options:
        pytest.skip(f"{name} has no ansible.builtin twin")
    if getattr(info.python, "ANY_ARGUMENTS", False):
        return  # set_fact, add_host, ... take any name
    wanted = {spelling for option, aliases in ansible_options[name].items() for spelling in (option, *aliases)}
    missing = sorted(wanted - ACTION_INTERNAL - _accepted(info))
    assert not missing, f"{name}: ansible.builtin.{name} accepts parameters this module refuses: {missing}"


def test_provisioning_doc_lists_every_ansible_builtin_module(
        ansible_options: dict[str, dict[str, list[str]]]) -> None:
    result = CliRunner().invoke(doc_main, ["--list", "ansible.builtin"])
    assert result.exit_code == 0, result.output
    listed = {line.split()[0].removeprefix("ansible.builtin.") for line in result.output.splitlines() if line.strip()}
    missing = sorted(set(ansible_options) - listed - set(KNOWN_MISSING))
    assert not missing, f"ansible.builtin modules provisioning-doc --list does not show: {missing}"
    assert not set(KNOWN_MISSING) & listed, "a module in KNOWN_MISSING exists now: take it out of the list"
