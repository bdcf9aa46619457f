"""``provisioning PATTERN --tree DIR``: each host's result as JSON in ``DIR/<host>``, as Ansible's tree callback
writes it (one compact, key-sorted JSON document per host, replaced by the next run's)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from runner.callbacks.results import dump, public
from runner.errors import OptionError
from runner.util.files import atomic_write_text


class ResultTree:
    """Writes results under ``directory``, created now: a directory that cannot be made is a bad option (exit 5)
    before any host is touched; a result that cannot be written later is a warning, and the run goes on."""

    def __init__(self, directory: Path, warn: Callable[[str], None]) -> None:
        self.directory = directory.expanduser()
        self.warn = warn
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OptionError(f"--tree {directory}: cannot create the directory: {exc.strerror or exc}") from None

    def write(self, host: str, result: Mapping[str, Any]) -> None:
        path = self.directory / host
        try:
            # Written whole or not at all: a reader never sees half a result.
            atomic_write_text(path, dump(public(result), pretty=False), mode=0o600)
        except OSError as exc:
            self.warn(f"--tree: cannot write {path}: {exc.strerror or exc}")
