"""Retry files: where they go, what they hold, the message, and a file that cannot be written."""

from __future__ import annotations

import io
from pathlib import Path

from runner.callbacks.base import HostStats
from runner.callbacks.retry import RetryFile, retry_file_path
from runner.callbacks.terminal import Terminal

STATS = {"web2": HostStats(ok=1, failed=1), "web1": HostStats(ok=2), "db1": HostStats(unreachable=1),
         "web3": HostStats(ok=1, rescued=1), "web4": HostStats(ok=1, ignored=1)}


def end_of_run(path: Path, stats: dict[str, HostStats]) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    RetryFile(path, Terminal(out, err, nocolor=True, columns=500)).playbook_end(stats, 2)  # nothing wrapped
    return out.getvalue(), err.getvalue()


def test_the_file_is_named_after_the_playbook_beside_it_or_in_the_save_path(tmp_path: Path) -> None:
    assert retry_file_path(Path("plays/site.yml"), None) == Path.cwd() / "plays" / "site.retry"
    assert retry_file_path(Path("/srv/site.v2.yaml"), tmp_path) == tmp_path / "site.v2.retry"


def test_failed_and_unreachable_hosts_one_a_line_sorted(tmp_path: Path) -> None:
    path = tmp_path / "retries" / "site.retry"  # the save path is created when missing, as Ansible does
    out, err = end_of_run(path, STATS)
    assert path.read_text() == "db1\nweb2\n"
    assert out == f"\tto retry, use: --limit @{path}\n"
    assert err == ""


def test_a_run_without_failures_writes_nothing_and_keeps_an_older_file(tmp_path: Path) -> None:
    path = tmp_path / "site.retry"
    path.write_text("web2\n")
    out, _ = end_of_run(path, {"web1": HostStats(ok=1)})
    assert out == ""
    assert path.read_text() == "web2\n"


def test_a_file_that_cannot_be_written_is_a_warning(tmp_path: Path) -> None:
    (tmp_path / "in-the-way").write_text("a file where the directory should be")
    path = tmp_path / "in-the-way" / "site.retry"
    out, err = end_of_run(path, STATS)
    assert out == ""
    assert err.startswith(f"[WARNING]: Could not create retry file: cannot write {path}: ")
    assert not path.parent.is_dir()
