"""Measuring a real command: exit code and the memory of its whole process tree."""

import sys
from pathlib import Path

from measure import measure

# A parent and a forked child each touch 64 MiB of their own, then wait so the sampler sees both
_TWO_PROCESSES = """
import os, time
block = bytearray(64 * 1024 * 1024)
pid = os.fork()
if pid == 0:
    mine = bytearray(64 * 1024 * 1024)
    time.sleep(0.5)
    os._exit(0)
time.sleep(0.5)
os.waitpid(pid, 0)
print("done")
"""


def test_measures_the_process_tree_and_the_exit_code(tmp_path: Path) -> None:
    log = tmp_path / "run.log"
    measured = measure([sys.executable, "-c", _TWO_PROCESSES], log)
    assert measured.exit_code == 0
    assert log.read_text().strip() == "done"
    # the tree holds at least the parent's block and the child's own one (the inherited block is shared)
    assert measured.peak_tree_mib >= 120
    assert measured.max_rss_mib >= 64
    assert measured.cpu_seconds > 0


def test_reports_a_failing_exit_code(tmp_path: Path) -> None:
    measured = measure([sys.executable, "-c", "import sys; print('boom'); sys.exit(3)"], tmp_path / "run.log")
    assert measured.exit_code == 3
    assert (tmp_path / "run.log").read_text().strip() == "boom"
