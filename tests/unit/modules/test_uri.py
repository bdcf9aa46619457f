"""The pure parts of uri: body encoding, the headers sent, response headers and cookies as result keys."""

from __future__ import annotations

import pytest

from modules.uri import encode_body, header_keys, parse_cookies, request_headers


def test_bodies_are_encoded_by_format() -> None:
    assert encode_body({"a": [1, 2]}, "json") == b'{"a": [1, 2]}'
    assert encode_body('{"raw": true}', "json") == b'{"raw": true}'
    assert encode_body({"q": "a b", "n": ["1", "2"]}, "form-urlencoded") == b"q=a+b&n=1&n=2"
    assert encode_body([["x", "1"], ["y", "2"]], "form-urlencoded") == b"x=1&y=2"
    assert encode_body("text", "raw") == b"text" and encode_body(None, "json") is None
    with pytest.raises(ValueError, match="body_format"):
        encode_body({"a": 1}, "raw")


def test_content_type_follows_the_format_unless_given() -> None:
    assert request_headers({}, "json", True) == {"Content-Type": "application/json"}
    assert request_headers({"content-type": "x/y"}, "json", True) == {"content-type": "x/y"}
    assert request_headers({}, "json", False) == {}
    assert request_headers({"X-N": 1}, "raw", True) == {"X-N": "1"}


def test_response_headers_and_cookies() -> None:
    assert header_keys({"content-type": "a", "x-request-id": "7"}) == {"content_type": "a", "x_request_id": "7"}
    assert parse_cookies("sid=abc; Path=/; HttpOnly, theme=dark") == {"sid": "abc", "theme": "dark"}
    assert parse_cookies("") == {}
