"""Where a community role's run stopped, read from either runner's output, so the two can be compared; the
machine's firewall rules, which a role sets through the shared network namespace, put back after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.community_roles import Outcome, Run, failed_task, restore_firewall, save_firewall

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


def test_the_firewall_rules_a_role_set_are_replaced_by_those_before_it(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    # Stand-ins for iptables-save/-restore (ip6tables' are missing here, and skipped): the rules live in a file.
    rules = tmp_path / "rules"
    rules.write_text("*filter\n:INPUT ACCEPT [0:0]\nCOMMIT\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("iptables-save", f"exec /bin/cat {rules}"), ("iptables-restore", f"exec /bin/cat > {rules}")):
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    saved = save_firewall()
    rules.write_text("*filter\n:INPUT DROP [0:0]\n-A INPUT -j DROP\nCOMMIT\n")  # what a firewall role leaves
    restore_firewall(saved)
    assert saved.keys() == {"iptables"}
    assert rules.read_text() == "*filter\n:INPUT ACCEPT [0:0]\nCOMMIT\n"
