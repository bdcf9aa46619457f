"""The module test harness itself: one module converged on a test host (check predicts, the run changes, the next
run does not), read back through testinfra."""

from __future__ import annotations

import os

from tests.support.remote_harness import converge, infra_for


def test_smoke(host, testenv) -> None:
    infra = infra_for(testenv)
    # A path of this test run's own, removed first: an interrupted run (or another session on the same hosts)
    # may have left one behind.
    path = f"/tmp/harness-dir-{os.getpid()}"
    infra.run(f"rm -rf {path}")
    try:
        converge(host, "file", {"path": path, "state": "directory", "mode": "0750"},
                 state=lambda: infra.file(path).exists)
        assert infra.file(path).mode == 0o750
    finally:
        infra.run(f"rm -rf {path}")
