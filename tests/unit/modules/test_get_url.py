"""The pure parts of get_url and its HTTP helpers: checksum options, checksum files, names of downloads, a
download that cannot be written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from modules._http import Response, filename_from_response, split_credentials, url_filename
from modules._spec import argument_spec
from modules.get_url import ARGUMENT_SPEC, checksum_from_listing, normalise_digest, parse_checksum
from tests.support.file_limit import FILE_LIMIT, TOO_LARGE, run_with_file_limit


def test_parse_checksum_splits_algorithm_and_value() -> None:
    assert parse_checksum("SHA256:abc") == ("sha256", "abc")
    assert parse_checksum("sha1:http://x/SUMS") == ("sha1", "http://x/SUMS")
    with pytest.raises(ValueError, match="<algorithm>:<checksum>"):
        parse_checksum("abc")
    with pytest.raises(ValueError, match="Unsupported checksum algorithm 'crc'"):
        parse_checksum("crc:abc")


def test_checksum_listing_finds_the_file_by_name() -> None:
    listing = "aaa  other.tar.gz\nbbb *app.tar.gz\nccc  ./lib.tar.gz\n"
    assert checksum_from_listing(listing, "app.tar.gz") == "bbb"
    assert checksum_from_listing(listing, "lib.tar.gz") == "ccc"
    assert checksum_from_listing(listing, "missing.tar.gz") is None
    assert checksum_from_listing("ddd\n", "anything") == "ddd"


def test_digest_is_normalised_and_must_be_hex() -> None:
    assert normalise_digest(" AB\u200bcd ") == "abcd"
    with pytest.raises(ValueError, match="invalid"):
        normalise_digest("xyz")


def test_download_names() -> None:
    assert url_filename("http://h/a/b/file%20name.tgz?x=1") == "file name.tgz"
    assert url_filename("http://h/dir/") == "index.html"
    named = Response(200, "OK", "http://h/get?id=3", {"content-disposition": 'attachment; filename="r.tgz"'})
    assert filename_from_response(named) == "r.tgz"
    sneaky = Response(200, "OK", "http://h/x.tgz", {"content-disposition": "attachment; filename=../../etc/x"})
    assert filename_from_response(sneaky) == "x"
    assert filename_from_response(Response(200, "OK", "http://h/x.tgz")) == "x.tgz"


def test_credentials_in_a_url_are_taken_out_of_it() -> None:
    assert split_credentials("https://u%40x:p%3Aw@host:8443/a?b=1") == ("https://host:8443/a?b=1", "u@x", "p:w")
    assert split_credentials("http://host/a") == ("http://host/a", None, None)


def test_argument_spec_is_the_documented_options_without_descriptions() -> None:
    spec = argument_spec({"a": {"description": "x", "type": "int", "default": 1, "aliases": ["b"]}})
    assert spec == {"a": {"type": "int", "default": 1, "aliases": ["b"]}}
    assert ARGUMENT_SPEC["url_password"] == {"type": "str", "aliases": ["password"], "no_log": True}
    assert ARGUMENT_SPEC["force"]["default"] is False


DOWNLOAD = """
import io, json, os
from modules._http import Response, download
from modules._utils import Module, ModuleFailure
body = io.BytesIO(b"d" * int(sys.argv[2]))
try:
    download(Module({}), Response(200, "OK", "http://example.test/big.bin", body=body), sys.argv[1])
    print(json.dumps({"msg": None}))
except ModuleFailure as failure:
    print(json.dumps({"msg": failure.msg}))
"""


def test_a_download_that_cannot_be_written_names_its_temp_file_and_leaves_none(tmp_path: Path) -> None:
    failed = run_with_file_limit(DOWNLOAD, str(tmp_path), str(FILE_LIMIT * 4))
    assert failed["msg"].startswith(f"Could not write the temp file {tmp_path}/.provisioning-download.")
    assert failed["msg"].endswith(f" for the download of http://example.test/big.bin: {TOO_LARGE}")
    assert os.listdir(tmp_path) == []
