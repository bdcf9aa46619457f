"""Retry files (``retry_files_enabled``): the hosts that failed or were unreachable, for ``--limit @FILE``.

As Ansible writes them: ``<playbook name>.retry`` beside the playbook (or in ``retry_files_save_path``), one host
a line, sorted, replaced by each run that has failed hosts; then ``to retry, use: --limit @FILE`` before the
recap. A file that cannot be written is a warning, as in Ansible: the run's outcome does not change.
"""

from __future__ import annotations

from pathlib import Path

from runner.callbacks.base import Callback, HostStats
from runner.callbacks.terminal import Terminal
from runner.util.files import FileWriteError, atomic_write_text


def retry_file_path(playbook: Path, save_dir: Path | None) -> Path:
    """Where the retry file of ``playbook`` goes: ``save_dir`` or the playbook's directory, named after it."""
    directory = save_dir if save_dir is not None else playbook.absolute().parent
    return directory / f"{playbook.stem}.retry"


class RetryFile(Callback):
    """Writes the retry file when the run ends; must come before the view that prints the recap, since
    Ansible prints its message first."""

    def __init__(self, path: Path, out: Terminal):
        self.path = path
        self.out = out

    def playbook_end(self, stats: dict[str, HostStats], exit_code: int) -> None:
        hosts = sorted(host for host, counts in stats.items() if counts.failed or counts.unreachable)
        if not hosts:
            return
        try:
            atomic_write_text(self.path, "".join(f"{host}\n" for host in hosts), mode=None)
        except FileWriteError as exc:
            self.out.warning(f"Could not create retry file: {exc.message}")
            return
        self.out.line(f"\tto retry, use: --limit @{self.path}")
