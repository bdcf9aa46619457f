"""apt's pure parts: package specs, version globs, apt-get -s output and the diff made from it; policy_rc_d's
stand-in script."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from modules import _apt
from modules._apt import PolicyRcD, describe_changes, parse_simulation, split_spec, upgrade_mode, version_matches
from modules._utils import Module, ModuleFailure

SIMULATION = """\
NOTE: This is only a simulation!
Reading package lists...
The following NEW packages will be installed:
  hello
Inst hello (2.10-3 Debian:12.5/stable [amd64])
Inst sl [5.02-1] (5.02-1+b1 Debian:12.5/stable [amd64])
Remv cowsay [3.03+dfsg2-8]
Purg fortune [1:1.99.1-7.3]
Conf hello (2.10-3 Debian:12.5/stable [amd64])
"""


def test_split_spec() -> None:
    assert split_spec("hello") == ("hello", None)
    assert split_spec("hello=2.10*") == ("hello", "2.10*")
    assert split_spec("libc6:i386=2.36-9") == ("libc6:i386", "2.36-9")
    with pytest.raises(ValueError):
        split_spec("hello=")


def test_version_matches_exact_and_glob() -> None:
    assert version_matches("2.10-3", None)
    assert version_matches("2.10-3", "2.10*") and not version_matches("2.9-1", "2.10*")
    assert version_matches("2.10-3", "2.10-3") and not version_matches("2.10-3", "2.10")
    assert not version_matches(None, None)


def test_parse_simulation_sorts_installs_upgrades_and_removals() -> None:
    assert parse_simulation(SIMULATION) == {"install": ["hello (2.10-3)"], "upgrade": ["sl (5.02-1+b1)"],
                                            "remove": ["cowsay (3.03+dfsg2-8)", "fortune (1:1.99.1-7.3)"]}
    assert parse_simulation("0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n") == {
        "install": [], "upgrade": [], "remove": []}


def test_describe_changes() -> None:
    diff = describe_changes(parse_simulation(SIMULATION))
    assert diff["before"] == "cowsay (3.03+dfsg2-8)\nfortune (1:1.99.1-7.3)\nsl\n"
    assert diff["after"] == "hello (2.10-3)\nsl (5.02-1+b1)\n"
    assert diff["installed"] == ["hello (2.10-3)", "sl (5.02-1+b1)"]
    assert diff["prepared"].startswith("install: hello (2.10-3)\nupgrade: sl (5.02-1+b1)\nremove: ")


def test_upgrade_reads_yaml_booleans_as_words() -> None:
    module = Module({})
    assert [upgrade_mode(value, module) for value in (None, False, True, "dist")] == ["no", "no", "yes", "dist"]
    with pytest.raises(ModuleFailure, match="value of upgrade must be one of"):
        upgrade_mode("sideways", module)


def test_policy_rc_d_stands_in_for_the_script_there_and_puts_it_back_across_filesystems(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The temp directory the script waits in is often another filesystem than /usr/sbin (a tmpfs /tmp on the
    # test hosts, geerlingguy.mysql's policy_rc_d: 101): a rename between them fails with EXDEV, as here.
    script = tmp_path / "sbin" / "policy-rc.d"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(_apt, "POLICY_RC_D", str(script))
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path / "tmp"))
    rename = os.rename

    def same_filesystem_only(source: str, target: str) -> None:
        if os.path.dirname(source) != os.path.dirname(target):
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        rename(source, target)

    monkeypatch.setattr(os, "rename", same_filesystem_only)
    with PolicyRcD(Module({}), 101):
        assert script.read_text() == "#!/bin/sh\nexit 101\n"
    assert script.read_text() == "#!/bin/sh\nexit 0\n"
    assert list((tmp_path / "tmp").iterdir()) == []
