"""asyncssh's search for native libraries (liboqs, nettle) is answered from the file system: importing the SSH
transport runs no program (ldconfig, gcc, ld), and the answer is the one the dynamic linker would find."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from runner.util import asyncssh_libraries
from runner.util.asyncssh_libraries import find_in_library_dirs

# A child interpreter that lists the processes started while it imports a module, by the audit events every way
# of starting one raises.
_COUNT_PROCESSES = """\
import sys
started = []
sys.addaudithook(lambda event, args: started.append(event) if event in (
    "subprocess.Popen", "os.posix_spawn", "os.exec", "os.system", "os.fork", "os.forkpty") else None)
__import__(sys.argv[1])
print(len(started))
"""


def processes_started_importing(module: str) -> int:
    result = subprocess.run([sys.executable, "-c", _COUNT_PROCESSES, module], capture_output=True, text=True,
                            timeout=300, check=True)
    return int(result.stdout)


def test_importing_the_ssh_transport_starts_no_process() -> None:
    assert processes_started_importing("asyncssh") > 0  # what asyncssh does on its own: ldconfig, gcc...
    assert processes_started_importing("runner.connection.ssh") == 0


def test_a_library_on_ld_library_path_is_found_by_full_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "liboqs.so.7").write_bytes(b"")
    (tmp_path / "liboqsextra.so").write_bytes(b"")  # another library whose name only starts the same
    monkeypatch.setenv("LD_LIBRARY_PATH", f"/nonexistent:{tmp_path}")
    assert find_in_library_dirs("oqs") == str(tmp_path / "liboqs.so.7")
    monkeypatch.setenv("LD_LIBRARY_PATH", "")
    assert find_in_library_dirs("oqs-not-a-library") is None


def test_the_linker_configuration_and_its_includes_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "conf.d").mkdir()
    (tmp_path / "ld.so.conf").write_text("# comment\ninclude conf.d/*.conf\n/opt/first\n")
    (tmp_path / "conf.d" / "a.conf").write_text("/opt/included  # trailing comment\ninclude ../ld.so.conf\n")
    monkeypatch.setattr(asyncssh_libraries, "_LD_SO_CONF", tmp_path / "ld.so.conf")
    monkeypatch.delenv("LD_LIBRARY_PATH", raising=False)
    dirs = asyncssh_libraries.library_dirs()
    assert dirs[:2] == ["/opt/included", "/opt/first"] and "/usr/lib" in dirs


@pytest.mark.parametrize("name", ["nettle", "oqs"])
def test_the_answer_agrees_with_ctypes_on_this_machine(name: str) -> None:
    # ctypes's own answer from an interpreter that has not imported runner (this one may have replaced it)
    asked = f"import ctypes.util; print(ctypes.util.find_library({name!r}))"
    theirs = subprocess.run([sys.executable, "-c", asked], capture_output=True, text=True, timeout=300,
                            check=True).stdout.strip()
    ours = find_in_library_dirs(name)
    assert (ours is None) == (theirs == "None")
    if ours is not None:
        assert Path(ours).resolve().name.startswith(f"lib{name}.so")
