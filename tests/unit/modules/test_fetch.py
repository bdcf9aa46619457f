"""Where fetch puts a file on the controller (pure: the action's destination rule)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from runner.actions.arguments import ActionFailed
from runner.actions.context import ActionContext
from runner.actions.fetch import destination
from runner.actions.run_state import DetachedRunState
from runner.module_index import ModuleIndex
from runner.templating import Templar


def where(tmp_path: Path, **args: Any) -> Path:
    ctx = ActionContext(host="web1", module=ModuleIndex().get("fetch"), args={}, state=DetachedRunState(),
                        templar=Templar(),
                        task_vars={"inventory_hostname": "web1", "playbook_dir": str(tmp_path)})
    return destination(ctx, {"flat": False, **args})


def test_per_host_directories_below_the_playbook(tmp_path: Path) -> None:
    assert where(tmp_path, src="/etc/motd", dest="fetched") == tmp_path / "fetched" / "web1" / "etc" / "motd"
    assert where(tmp_path, src="/etc/motd", dest="/srv/backup") == Path("/srv/backup/web1/etc/motd")


def test_flat_names_the_file_or_a_directory_with_a_slash(tmp_path: Path) -> None:
    assert where(tmp_path, src="/etc/motd", dest="out/motd.txt", flat=True) == tmp_path / "out" / "motd.txt"
    assert where(tmp_path, src="/etc/motd", dest="out/", flat=True) == tmp_path / "out" / "motd"
    (tmp_path / "existing").mkdir()
    with pytest.raises(ActionFailed, match="use a trailing slash"):
        where(tmp_path, src="/etc/motd", dest="existing", flat=True)


def test_a_relative_src_cannot_leave_the_host_directory(tmp_path: Path) -> None:
    with pytest.raises(ActionFailed, match="directory traversal"):
        where(tmp_path, src="../../etc/passwd", dest="fetched")
