"""The helpers modules share (modules/_utils.py): modes, path facts, directories, atomic writes, diffs."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from modules._utils import (
    Module,
    ModuleFailure,
    _command_skip_reason,
    diff_text,
    make_directories,
    parse_mode,
    path_info,
    path_state,
    read_text,
)
from tests.support.file_limit import FILE_LIMIT, TOO_LARGE, run_with_file_limit

MODULE = Module({})


@pytest.mark.parametrize(("mode", "current", "is_dir", "expected"), [
    (0o644, 0o600, False, 0o644),
    ("0644", 0o600, False, 0o644),
    ("644", 0o600, False, 0o644),
    ("02770", 0o700, True, 0o2770),
    ("preserve", 0o640, False, 0o640),
    ("u=rw,g=r,o=", 0o777, False, 0o640),
    ("a+x", 0o644, False, 0o755),
    ("+x", 0o600, False, 0o711),
    ("go-w", 0o666, False, 0o644),
    ("u+s", 0o755, False, 0o4755),
    ("g+s", 0o750, True, 0o2750),
    ("o+t", 0o777, True, 0o1777),
    ("u=rwX,g=rX,o=", 0o666, False, 0o640),  # X: no execute bit anywhere on a file, none added
    ("u=rwX,g=rX,o=", 0o744, False, 0o750),  # X: the file is executable by someone, so it is kept
    ("u=rwX,g=rX,o=", 0o600, True, 0o750),  # X: directories always get it
])
def test_parse_mode(mode: object, current: int, is_dir: bool, expected: int) -> None:
    assert oct(parse_mode(mode, current, is_dir, MODULE)) == oct(expected)


@pytest.mark.parametrize("mode", ["u=banana", "rwx", "0999", "77777", 0o10000, "u+q"])
def test_parse_mode_rejects_nonsense(mode: object) -> None:
    with pytest.raises(ModuleFailure, match="mode must be in octal or symbolic form"):
        parse_mode(mode, 0o644, False, MODULE)


def test_path_state_names_every_kind(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "dir").mkdir()
    (tmp_path / "link").symlink_to("file")
    os.link(tmp_path / "file", tmp_path / "hard")
    assert path_state(str(tmp_path / "missing")) == "absent"
    assert path_state(str(tmp_path / "dir")) == "directory"
    assert path_state(str(tmp_path / "link")) == "link"
    assert path_state(str(tmp_path / "hard")) == "hard"
    (tmp_path / "single").write_text("y")
    assert path_state(str(tmp_path / "single")) == "file"


def test_path_info_reports_as_a_result_does(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("abc")
    path.chmod(0o640)
    info = path_info(str(path))
    assert (info["mode"], info["state"], info["size"], info["uid"]) == ("0640", "file", 3, os.getuid())
    assert path_info(str(tmp_path / "missing")) == {"state": "absent"}


def test_make_directories_predicts_then_creates_with_mode(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b"
    assert make_directories(Module({}, check_mode=True), str(target), mode="0700") is True
    assert not (tmp_path / "a").exists()
    assert make_directories(Module({}), str(target), mode="0700") is True
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o700 and target.is_dir()
    assert make_directories(Module({}), str(target), mode="0755") is False
    (tmp_path / "file").write_text("")
    with pytest.raises(ModuleFailure, match="not a directory"):
        make_directories(Module({}), str(tmp_path / "file" / "sub"))


def test_set_file_attributes_predicts_without_touching(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_text("")
    path.chmod(0o644)
    diff: dict = {}
    assert Module({}, check_mode=True).set_file_attributes(str(path), mode="0600", diff=diff) is True
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert diff == {"before": {"mode": "0644"}, "after": {"mode": "0600"}}
    assert Module({}).set_file_attributes(str(path), mode="0600") is True
    assert Module({}).set_file_attributes(str(path), mode="0600") is False


def test_atomic_write_keeps_the_old_file_when_validation_fails(tmp_path: Path) -> None:
    path = tmp_path / "conf"
    path.write_text("old")
    path.chmod(0o600)
    module = Module({})

    def reject(candidate: str) -> None:
        assert Path(candidate).read_text() == "new"
        module.fail("failed to validate")

    with pytest.raises(ModuleFailure):
        module.atomic_write(str(path), b"new", reject)
    assert path.read_text() == "old" and os.listdir(tmp_path) == ["conf"]
    module.atomic_write(str(path), b"new")
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o600


REPLACE_WITH_BACKUP = """
import json
from modules._utils import Module, ModuleFailure
try:
    Module({}).replace_file(sys.argv[1], b"n" * int(sys.argv[2]), backup=True)
    print(json.dumps({"msg": None}))
except ModuleFailure as failure:
    print(json.dumps({"msg": failure.msg, "path": failure.result.get("path")}))
"""


def _replace_with_file_limit(path: Path, new_size: int) -> dict:
    return run_with_file_limit(REPLACE_WITH_BACKUP, str(path), str(new_size))


def test_a_backup_that_cannot_be_written_leaves_nothing_and_names_itself(tmp_path: Path) -> None:
    path = tmp_path / "conf"
    path.write_bytes(b"o" * (FILE_LIMIT + 1))  # its backup cannot be written whole
    failed = _replace_with_file_limit(path, 10)
    assert failed["msg"].startswith(f"Could not write the temp file {tmp_path}/.conf.")
    assert f"for the backup {path}." in failed["msg"] and failed["msg"].endswith(
        f"of {path}: {TOO_LARGE}")
    assert path.read_bytes() == b"o" * (FILE_LIMIT + 1) and os.listdir(tmp_path) == ["conf"]


def test_a_new_file_that_cannot_be_written_takes_its_backup_away(tmp_path: Path) -> None:
    path = tmp_path / "conf"
    path.write_bytes(b"old")
    failed = _replace_with_file_limit(path, FILE_LIMIT + 1)
    assert failed["msg"].startswith(f"Could not write the temp file {tmp_path}/.conf.")
    assert failed["msg"].endswith(f".tmp for {path}: {TOO_LARGE}") and failed["path"] == str(path)
    assert path.read_bytes() == b"old" and os.listdir(tmp_path) == ["conf"]


def test_replace_file_keeps_a_backup_with_the_old_files_mode(tmp_path: Path) -> None:
    path = tmp_path / "conf"
    path.write_bytes(b"old")
    path.chmod(0o640)
    backup = Module({}).replace_file(str(path), b"new", backup=True)
    assert Path(backup).read_bytes() == b"old" and stat.S_IMODE(Path(backup).stat().st_mode) == 0o640
    assert path.read_bytes() == b"new" and sorted(os.listdir(tmp_path)) == sorted(["conf", Path(backup).name])


def test_diff_text_placeholders(tmp_path: Path) -> None:
    assert diff_text(b"a\n") == "a\n"
    assert "binary" in diff_text(b"\x00\x01")
    assert "larger than 4 bytes" in diff_text(b"12345", limit=4)
    assert read_text(str(tmp_path / "missing")) == ""


def test_a_path_that_cannot_be_looked_at_is_absent_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(path: str) -> os.stat_result:
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(os, "lstat", refused)
    module = Module({})
    assert path_state("/locked/file", module) == "absent"
    assert module.warnings == ["Insufficient permissions to access /locked/file. Treating as absent"]


def test_a_command_line_with_unbalanced_quotes_fails_in_ansible_cores_words() -> None:
    with pytest.raises(ModuleFailure, match=r"^Invalid command syntax in run_command$") as failure:
        Module({}).run_command("echo 'missing /tmp/x")
    assert "quotation" in failure.value.result["exception"]


def test_command_skip_reasons_are_ansible_cores_words(tmp_path: Path) -> None:
    (tmp_path / "made").write_text("")
    made, gone = str(tmp_path / "made"), str(tmp_path / "gone")
    assert _command_skip_reason({"creates": made}, None, False) == (
        f"Did not run command since '{made}' exists", f"skipped, since {made} exists")
    assert _command_skip_reason({"creates": "made"}, str(tmp_path), True) == (
        "Would not run command since 'made' exists", "skipped, since made exists")
    assert _command_skip_reason({"removes": gone}, None, True) == (
        f"Would not run command since '{gone}' does not exist", f"skipped, since {gone} does not exist")
    assert _command_skip_reason({"creates": gone, "removes": made}, None, False) is None
