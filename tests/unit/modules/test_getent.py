"""getent's parsing: first field as the key, the rest as a list."""

from __future__ import annotations

from modules.getent import parse_entries


def test_colon_and_whitespace_entries() -> None:
    assert parse_entries("root:x:0:0:root:/root:/bin/bash\n", ":") == {
        "root": ["x", "0", "0", "root", "/root", "/bin/bash"]}
    assert parse_entries("127.0.0.1       localhost\n::1  localhost ip6-localhost\n", None) == {
        "127.0.0.1": ["localhost"], "::1": ["localhost", "ip6-localhost"]}
    assert parse_entries("a:1\na:2\n", ":") == {"a": ["1"]}
