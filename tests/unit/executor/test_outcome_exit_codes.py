"""Exit codes of a playbook run (runner/executor/outcome.py and the CLI): 0 ok, 1 an error, 2 a host failed,
4 a host unreachable (over a failed one), 5 bad options; never a traceback."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

PLAYBOOK = """
- hosts: all
  gather_facts: false
  tasks:
    - name: maybe fails
      command: "{{ 'false' if inventory_hostname in (failing | default([])) else 'true' }}"
"""


@pytest.mark.parametrize(("args", "code", "said"), [
    ((), 0, "PLAY RECAP"),
    (("-e", '{"failing": ["h2"]}'), 2, "fatal: [h2]: FAILED!"),
    (("--vault-password-file", "/nonexistent/vault-pass"), 1, "/nonexistent/vault-pass was not found"),
    (("--forks", "0"), 5, "--forks"),
    (("--report", "yaml:out.yml"), 5, "unknown report kind 'yaml'"),
], ids=["ok", "host-failed", "error", "bad-option-value", "bad-report-option"])
def test_exit_codes(local_hosts: LocalHosts, args: tuple[str, ...], code: int, said: str) -> None:
    run = local_hosts.play(PLAYBOOK, *args)
    assert run.exit_code == code, run.output
    assert said in run.output and "Traceback" not in run.output


def test_unreachable_is_4_even_when_another_host_failed(local_hosts: LocalHosts) -> None:
    local_hosts.add_unreachable("gone")
    run = local_hosts.play(PLAYBOOK, "-e", '{"failing": ["h1"]}')
    assert run.exit_code == 4, run.output
    assert "fatal: [gone]: UNREACHABLE!" in run.output and "fatal: [h1]: FAILED!" in run.output
    assert run.stats["gone"]["unreachable"] == 1 and run.stats["h1"]["failures"] == 1
