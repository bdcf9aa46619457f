"""Where a community role's run stopped, read from either runner's output, so the two can be compared."""

from __future__ import annotations

from bench.community_roles import Outcome, Run, failed_task

OUTPUT = """\
TASK [demo.tools.web : Fetch variables] ****************************************
fatal: [role1]: FAILED! => {"msg": "not yet"}
...ignoring

TASK [demo.tools.web : Disable systemd-socket activation] **********************
fatal: [role1]: FAILED! => {"changed": false, "msg": "no systemd"}

PLAY RECAP *********************************************************************
role1                      : ok=8    changed=0    unreachable=0    failed=1    skipped=0
"""


def test_the_first_failure_not_ignored_names_its_task() -> None:
    assert failed_task(OUTPUT) == "demo.tools.web : Disable systemd-socket activation"
    assert failed_task("TASK [x] ***\nok: [role1]\n") is None


def test_a_failing_run_says_where_it_stopped() -> None:
    stopped = Run(rc=2, changed=0, failed_at="demo.tools.web : Disable systemd-socket activation")
    outcome = Outcome("demo.tools.web", "ours", stopped, stopped)
    assert outcome.verdict == "fails (rc 2) at [demo.tools.web : Disable systemd-socket activation]"
