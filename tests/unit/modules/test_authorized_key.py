"""authorized_key's line handling: options with quoted spaces, keys matched by material, exclusive."""

from __future__ import annotations

from modules._sshkeys import AuthorizedKey
from modules.authorized_key import new_lines

BLOB_A = "AAAAC3NzaC1lZDI1NTE5AAAAIGPUuCf7HFLFxnRyc85s9cZmscMlo5AB+KTdskqogNNo"
BLOB_B = "AAAAC3NzaC1lZDI1NTE5AAAAIL5kGiuGLmQp3qmClD5iiSRuvDJNG4FsFdfYOyQrKQ/V"


def test_parse_with_options_holding_spaces() -> None:
    key = AuthorizedKey.parse(f'command="echo hi there",no-pty ssh-ed25519 {BLOB_A} me@host')
    assert (key.options, key.keytype, key.blob, key.comment) == (
        'command="echo hi there",no-pty', "ssh-ed25519", BLOB_A, "me@host")
    assert key.render() == f'command="echo hi there",no-pty ssh-ed25519 {BLOB_A} me@host'
    assert AuthorizedKey.parse("# a comment") is None and AuthorizedKey.parse("not a key") is None


def test_present_rewrites_in_place_and_appends() -> None:
    lines = ["# keys", f"ssh-ed25519 {BLOB_A} old"]
    wanted = [AuthorizedKey("ssh-ed25519", BLOB_A, "no-pty", "new"), AuthorizedKey("ssh-ed25519", BLOB_B)]
    assert new_lines(lines, wanted, "present", False) == [
        "# keys", f"no-pty ssh-ed25519 {BLOB_A} new", f"ssh-ed25519 {BLOB_B}"]


def test_exclusive_and_absent() -> None:
    lines = [f"ssh-ed25519 {BLOB_A} a", f"ssh-ed25519 {BLOB_B} b"]
    only_b = [AuthorizedKey("ssh-ed25519", BLOB_B, comment="b")]
    assert new_lines(lines, only_b, "present", True) == [f"ssh-ed25519 {BLOB_B} b"]
    assert new_lines(lines, only_b, "absent", False) == [f"ssh-ed25519 {BLOB_A} a"]
