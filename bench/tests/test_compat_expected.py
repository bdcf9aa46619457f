"""Regression guard: the ansible-core integration targets ours passes still pass
(``python -m bench.compat --expected``, on the suite's own test hosts; downloads each sdist once): the pinned
version's (expected.txt) and each newer one's (expected-X.Y.Z.txt), whose behaviour ours follows where they differ."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.ansible_core import ensure_ansible_core_importable

REPO = Path(__file__).resolve().parent.parent.parent
TIME_LIMIT = 2400  # the whole list; each target has the harness's own limit as well
# Two targets at a time, each on a pair of hosts of its own (the harness never lets two share hosts): the list
# has grown past what one at a time runs in CI's time, and a target mostly waits on its hosts, not on the CPUs.
JOBS = 2

pytestmark = pytest.mark.hosts


# the pinned version's list, then every other version's (expected-X.Y.Z.txt beside it)
OTHER_VERSIONS = sorted(path.stem.removeprefix("expected-")
                        for path in (REPO / "bench" / "compat").glob("expected-*.txt"))


@pytest.mark.parametrize("version", [None, *OTHER_VERSIONS], ids=["pinned", *OTHER_VERSIONS])
def test_targets_expected_to_pass_still_pass(tmp_path: Path, version: str | None) -> None:
    # Some expected targets bring modules written against Ansible's API, which run with the optional extra
    ensure_ansible_core_importable()
    chosen = ["--ansible-core-version", version] if version else []
    ran = subprocess.run([sys.executable, "-m", "bench.compat", "--expected", *chosen, "--jobs", str(JOBS),
                          "--log-dir", str(tmp_path)],
                         cwd=REPO, capture_output=True, text=True, timeout=TIME_LIMIT, stdin=subprocess.DEVNULL)
    failed = [line for line in ran.stdout.splitlines() if line.startswith("FAIL")]
    assert ran.returncode == 0 and not failed, "\n".join(failed) + ran.stderr[-3000:]
    assert ran.stdout.splitlines()[-1].endswith(" passed, 0 failed")
