"""known_hosts' matching: plain and hashed host names, keys of one type replaced, others kept."""

from __future__ import annotations

import base64
import subprocess

import pytest

from modules._sshkeys import KnownHost, hash_host, host_matches
from modules._utils import Module, ModuleFailure
from modules.known_hosts import new_lines, wanted_line

KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGPUuCf7HFLFxnRyc85s9cZmscMlo5AB+KTdskqogNNo"
OTHER = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIL5kGiuGLmQp3qmClD5iiSRuvDJNG4FsFdfYOyQrKQ/V"
RSA = "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7"


def test_hashed_names_match_as_ssh_keygen_writes_them(tmp_path) -> None:
    hashed = hash_host("git.example.test", salt=b"\x01" * 20)
    assert hashed.startswith("|1|" + base64.b64encode(b"\x01" * 20).decode())
    assert host_matches(hashed, "git.example.test") and not host_matches(hashed, "other.example.test")
    known = tmp_path / "known_hosts"
    known.write_text(f"plain.example.test {KEY}\n")
    subprocess.run(["ssh-keygen", "-H", "-f", str(known)], check=True, capture_output=True)
    assert KnownHost.parse(known.read_text().splitlines()[0]).matches("plain.example.test")


def test_same_type_replaced_other_types_kept() -> None:
    lines = [f"a.test {KEY}", f"a.test {RSA}", f"b.test {KEY}"]
    wanted = KnownHost.parse(f"a.test {OTHER}")
    assert new_lines(lines, "a.test", wanted, "present", False) == [f"a.test {RSA}", f"b.test {KEY}",
                                                                   f"a.test {OTHER}"]
    assert new_lines(lines, "a.test", None, "absent", False) == [f"b.test {KEY}"]
    assert new_lines(lines, "a.test", KnownHost.parse(f"a.test {KEY}"), "present", False) == lines


def test_a_certificate_authority_key_is_added_beside_another_not_replacing_it() -> None:
    lines = [f"@cert-authority *.a.test {KEY}", "# a comment"]
    wanted = KnownHost.parse(f"@cert-authority *.a.test {OTHER}")
    assert new_lines(lines, "*.a.test", wanted, "present", False) == [*lines, f"@cert-authority *.a.test {OTHER}"]
    assert new_lines(lines, "*.a.test", KnownHost.parse(lines[0]), "present", False) == lines
    # a plain key of the host is still replaced by a plain key of its type, the CA line kept
    plain = [f"@cert-authority *.a.test {KEY}", f"*.a.test {KEY}"]
    assert new_lines(plain, "*.a.test", KnownHost.parse(f"*.a.test {OTHER}"), "present", False) == [
        plain[0], f"*.a.test {OTHER}"]


def test_a_name_the_key_does_not_match_fails_with_ssh_keygens_rc() -> None:
    # ansible-core 2.21 adds the rc of `ssh-keygen -F`, which exits 1 for a name it does not find
    with pytest.raises(ModuleFailure, match=r"^Host parameter does not match hashed host field in supplied key$") \
            as failure:
        wanted_line(Module({}), "example.com", f"example.org {KEY}")
    assert failure.value.result == {"rc": 1}
