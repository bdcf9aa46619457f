"""getent's parsing: first field as the key, the rest as a list."""

from __future__ import annotations

import pytest

from modules._utils import Module, ModuleFailure
from modules.getent import parse_entries, run


def test_colon_and_whitespace_entries() -> None:
    assert parse_entries("root:x:0:0:root:/root:/bin/bash\n", ":") == {
        "root": ["x", "0", "0", "root", "/root", "/bin/bash"]}
    assert parse_entries("127.0.0.1       localhost\n::1  localhost ip6-localhost\n", None) == {
        "127.0.0.1": ["localhost"], "::1": ["localhost", "ip6-localhost"]}
    assert parse_entries("a:1\na:2\n", ":") == {"a": ["1"]}


def test_an_empty_split_fails_as_ansible_core_2_21s() -> None:
    with pytest.raises(ModuleFailure, match=r"^Invalid split value\. The value must be a non-empty string$"):
        run(Module({"database": "passwd", "key": "root", "split": "", "service": None, "fail_key": True}))
