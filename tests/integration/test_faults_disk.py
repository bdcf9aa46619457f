"""A full disk under modules that write files, on a test host of this file's own (env "faults-disk", 127.0.0.60).

Each test mounts a 1 MiB tmpfs inside the host's mount namespace, puts the file a task will change there, fills
the rest, then runs the task (copy, template, lineinfile, blockinfile, replace, ini_file, assemble, with
``backup: yes``): when neither the backup nor the new file fits, and when the backup fits but the new file does
not. The task fails with a message naming the file it was writing and "No space left on device"; the old file is
intact; no backup (partial or whole) and no temp file is left beside it. A file too large to travel inside the
module call is streamed to the host: that fails the same way.
"""

from __future__ import annotations

import os
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from runner.actions.copy import INLINE_LIMIT
from runner.testenv import TestEnv, unavailable_reason
from tests.support.playbook_run import PlaybookRun, run_playbook

pytestmark = pytest.mark.hosts

PAGE = os.sysconf("SC_PAGE_SIZE")  # tmpfs counts whole pages
NO_SPACE = "[Errno 28] No space left on device"
TARGET = "app.conf"
FILLER = "filler"
# Two pages: a backup of it fits in three free pages, and leaves one, too few for the new content.
ORIGINAL = b"original setting = 1\n" * 350
BACKUP_FITS_PAGES = 3
NOTHING_FITS_PAGES = 1


@pytest.fixture(scope="module")
def disk_env() -> Iterator[TestEnv]:
    reason = unavailable_reason()
    if reason:
        pytest.skip(f"no local test hosts: {reason}")
    env = TestEnv(name="faults-disk", count=1, base_address=60)
    try:
        env.up()
        yield env
    finally:
        env.down()


@dataclass
class SmallDisk:
    """A tmpfs mounted at ``mount_point`` in the test host's mount namespace, seen from the machine at ``local``."""

    env: TestEnv
    mount_point: str
    local: Path

    @property
    def target(self) -> str:
        return f"{self.mount_point}/{TARGET}"

    def fill(self, free_pages: int) -> None:
        """Write the original file, then fill the disk and free ``free_pages`` pages again."""
        (self.local / TARGET).write_bytes(ORIGINAL)
        filler = self.local / FILLER
        block = b"\0" * (64 * 1024)
        with open(filler, "wb", buffering=0) as handle:
            try:
                while True:
                    handle.write(block)
            except OSError as exc:
                assert exc.errno == 28, exc
        os.truncate(filler, filler.stat().st_size // PAGE * PAGE - free_pages * PAGE)
        assert os.statvfs(self.local).f_bavail == free_pages

    def entries(self) -> list[str]:
        return sorted(os.listdir(self.local))

    def fragments(self, texts: list[str]) -> str:
        """A directory of fragments on the host's own disk (for assemble), beside the small one."""
        directory = f"{self.mount_point}-fragments"
        local = self.local.with_name(Path(directory).name)
        local.mkdir()
        for number, text in enumerate(texts):
            (local / f"{number:02d}").write_text(text)
        return directory


def _in_host(pid: int, *command: str) -> None:
    subprocess.run(["nsenter", "--target", str(pid), "--mount", "--", *command], check=True, timeout=60,
                   capture_output=True)


@pytest.fixture
def small_disk(disk_env: TestEnv) -> Iterator[SmallDisk]:
    (host,) = disk_env.hosts()
    mount_point = f"/mnt/full-{uuid.uuid4().hex[:8]}"
    _in_host(host.pid, "mkdir", "-p", mount_point)
    _in_host(host.pid, "mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "tmpfs", mount_point)
    try:
        yield SmallDisk(disk_env, mount_point, Path(f"/proc/{host.pid}/root{mount_point}"))
    finally:
        _in_host(host.pid, "umount", mount_point)
        _in_host(host.pid, "rm", "-rf", mount_point, f"{mount_point}-fragments")


def _run_task(disk: SmallDisk, tmp_path: Path, module: str, args: dict[str, Any]) -> tuple[PlaybookRun, dict]:
    playbook = tmp_path / "full_disk.yml"
    playbook.write_text(yaml.safe_dump([{"hosts": "host1", "gather_facts": False,
                                         "tasks": [{"name": "write", module: args}]}]))
    run = run_playbook(disk.env.inventory_path, playbook)
    return run, run.tasks("write")[0]["host1"]


def _task_args(module: str, disk: SmallDisk, tmp_path: Path) -> dict[str, Any]:
    """Arguments that make ``module`` change the target into something as large or larger, with a backup."""
    if module == "copy":
        return {"content": "new setting = 2\n" * 700, "dest": disk.target, "backup": True}
    if module == "template":
        source = tmp_path / "app.conf.j2"
        source.write_text("{% for n in range(700) %}new setting = {{ n }}\n{% endfor %}")
        return {"src": str(source), "dest": disk.target, "backup": True}
    if module == "lineinfile":
        return {"path": disk.target, "line": "added = yes", "backup": True}
    if module == "blockinfile":
        return {"path": disk.target, "block": "added = yes", "backup": True}
    if module == "ini_file":
        return {"path": disk.target, "section": "added", "option": "key", "value": "yes", "backup": True}
    if module == "assemble":
        return {"src": disk.fragments(["first = 1\n" * 500, "second = 2\n" * 500]), "dest": disk.target,
                "backup": True}
    assert module == "replace"
    return {"path": disk.target, "regexp": "original", "replace": "replaced", "backup": True}


MODULES = ["copy", "template", "lineinfile", "blockinfile", "replace", "ini_file", "assemble"]


def _assert_nothing_changed(disk: SmallDisk, result: dict) -> None:
    assert result["failed"] is True, result
    assert NO_SPACE in result["msg"], result["msg"]
    assert (disk.local / TARGET).read_bytes() == ORIGINAL
    assert disk.entries() == sorted([TARGET, FILLER]), "a backup or temp file was left behind"


@pytest.mark.parametrize("module", MODULES)
def test_neither_backup_nor_new_file_fits(small_disk: SmallDisk, tmp_path: Path, module: str) -> None:
    small_disk.fill(free_pages=NOTHING_FITS_PAGES)
    run, result = _run_task(small_disk, tmp_path, module, _task_args(module, small_disk, tmp_path))
    assert run.exit_code == 2, run.output
    _assert_nothing_changed(small_disk, result)
    assert f"for the backup {small_disk.target}." in result["msg"], result["msg"]
    assert f"of {small_disk.target}: {NO_SPACE}" in result["msg"]
    assert "Traceback" not in run.output


@pytest.mark.parametrize("module", MODULES)
def test_the_backup_fits_but_the_new_file_does_not(small_disk: SmallDisk, tmp_path: Path, module: str) -> None:
    small_disk.fill(free_pages=BACKUP_FITS_PAGES)
    run, result = _run_task(small_disk, tmp_path, module, _task_args(module, small_disk, tmp_path))
    assert run.exit_code == 2, run.output
    _assert_nothing_changed(small_disk, result)
    assert result["msg"].startswith(f"Could not write the temp file {small_disk.mount_point}/.{TARGET}."), result
    assert f" for {small_disk.target}: {NO_SPACE}" in result["msg"]


def test_a_large_file_streamed_to_a_full_disk(small_disk: SmallDisk, tmp_path: Path) -> None:
    small_disk.fill(free_pages=BACKUP_FITS_PAGES)
    source = tmp_path / "large.bin"
    source.write_bytes(os.urandom(INLINE_LIMIT + PAGE))  # too large to travel inside the module call
    run, result = _run_task(small_disk, tmp_path, "copy", {"src": str(source), "dest": small_disk.target,
                                                           "backup": True})
    assert run.exit_code == 2, run.output
    _assert_nothing_changed(small_disk, result)
    assert f"could not send {source} to the host: could not write the temp file {small_disk.mount_point}/" \
        in result["msg"], result["msg"]


def test_the_change_goes_through_once_there_is_room(small_disk: SmallDisk, tmp_path: Path) -> None:
    small_disk.fill(free_pages=BACKUP_FITS_PAGES * 2)
    run, result = _run_task(small_disk, tmp_path, "lineinfile", _task_args("lineinfile", small_disk, tmp_path))
    assert run.exit_code == 0, run.output
    assert (small_disk.local / TARGET).read_bytes() == ORIGINAL + b"added = yes\n"
    backup = Path(result["backup"]).name
    assert (small_disk.local / backup).read_bytes() == ORIGINAL
    assert small_disk.entries() == sorted([TARGET, FILLER, backup])
