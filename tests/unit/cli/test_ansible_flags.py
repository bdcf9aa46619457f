"""Every option of ansible-playbook, ansible and ansible-inventory is an option of the matching command, shown
in its --help; ansible-core's own parsers say which options there are."""

from __future__ import annotations

import json
import re
import subprocess

import click
import pytest
from click.testing import CliRunner

from runner.cli.adhoc import main as adhoc_main
from runner.cli.inventory import main as inventory_main
from runner.cli.playbook import main as playbook_main
from tests.support.ansible_core import ansible_core_python

_ANSIBLE_OPTIONS = """
import json
from ansible.cli.adhoc import AdHocCLI
from ansible.cli.inventory import InventoryCLI
from ansible.cli.playbook import PlaybookCLI
found = {}
for name, cls in (("ansible-playbook", PlaybookCLI), ("ansible", AdHocCLI), ("ansible-inventory", InventoryCLI)):
    cli = cls([name])
    cli.init_parser()
    found[name] = sorted({flag for action in cli.parser._actions for flag in action.option_strings})
print(json.dumps(found))
"""

OURS: dict[str, click.Command] = {"ansible-playbook": playbook_main, "ansible": adhoc_main,
                                  "ansible-inventory": inventory_main}


@pytest.fixture(scope="module")
def ansible_options() -> dict[str, list[str]]:
    done = subprocess.run([ansible_core_python(), "-c", _ANSIBLE_OPTIONS], capture_output=True, text=True,
                          timeout=300, check=True)
    return json.loads(done.stdout)


def help_flags(command: click.Command) -> set[str]:
    result = CliRunner().invoke(command, ["--help"])
    assert result.exit_code == 0, result.output
    return set(re.findall(r"(?<![\w-])(--?[A-Za-z][\w-]*)", result.output))


@pytest.mark.parametrize("ansible_name", sorted(OURS))
def test_every_ansible_option_is_in_our_help(ansible_name: str, ansible_options: dict[str, list[str]]) -> None:
    missing = sorted(set(ansible_options[ansible_name]) - help_flags(OURS[ansible_name]))
    assert not missing, f"{ansible_name}'s options missing from ours: {missing}"


@pytest.mark.parametrize("ansible_name", sorted(OURS))
def test_every_ansible_option_is_parsed(ansible_name: str, ansible_options: dict[str, list[str]]) -> None:
    """Shown is not enough: each flag must be one the command's parser takes."""
    command = OURS[ansible_name]
    parsed = {flag for param in command.params for flag in (*param.opts, *param.secondary_opts)}
    parsed |= {"-h", "--help"}
    assert not sorted(set(ansible_options[ansible_name]) - parsed)
