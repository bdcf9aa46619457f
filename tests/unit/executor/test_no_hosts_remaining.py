"""When the default view says ``NO MORE HOSTS LEFT`` (runner/executor/playbook.py): as ansible-core 2.19 and 2.21
do, only when ``max_fail_percentage`` is passed, and then twice; a play whose hosts all failed otherwise, or one
stopped by ``any_errors_fatal``, goes to the recap without it."""

from __future__ import annotations

import pytest

from tests.unit.executor.conftest import LocalHosts

BANNER = "NO MORE HOSTS LEFT"


@pytest.mark.parametrize(
    ("keyword", "shown"),
    [
        ("", 0),
        ("serial: 1", 0),
        ("any_errors_fatal: true", 0),
        ("max_fail_percentage: 0", 2),
    ],
)
def test_the_banner_only_when_the_fail_percentage_is_passed(local_hosts: LocalHosts, keyword: str, shown: int) -> None:
    run = local_hosts.play(f"""
        - hosts: h1, h2
          gather_facts: false
          {keyword}
          tasks:
            - command: "false"
            - debug: msg=after
        """)
    assert run.exit_code == 2, run.output
    assert run.output.count(BANNER) == shown, run.output
    assert "after" not in run.output
