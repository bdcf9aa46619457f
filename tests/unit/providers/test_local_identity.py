"""A golden image's host-specific text made tokens at capture: which files, which mentions, and the manifest."""

from __future__ import annotations

import json
from pathlib import Path

from runner.providers.local_identity import BuildIdentity, templatize
from runner.testenv.image_host import ADDRESS_TOKEN, HOSTNAME_TOKEN, IMAGE_HOST_MANIFEST


def _write(layer: Path, name: str, content: bytes) -> Path:
    path = layer / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    return path


def test_the_build_servers_name_and_address_become_tokens_in_configuration_only(tmp_path: Path) -> None:
    site = _write(tmp_path, "etc/nginx/site.conf", b"listen 127.0.0.90:80;\nserver_name web-build;\n")
    site.chmod(0o640)
    _write(tmp_path, "etc/other.conf", b"peer 127.0.0.901 and web-build-2 and 10.127.0.0.90\n")
    _write(tmp_path, "var/log/nginx/access.log", b"127.0.0.90 web-build\n")
    _write(tmp_path, "etc/blob.bin", b"\0web-build\0")
    _write(tmp_path, "etc/init.d/nginx", b"#!/bin/sh\n")
    (tmp_path / "etc/postgresql").mkdir()

    # udev ran too, but the image holds nothing of it: the machine's own, left out.
    files = templatize(tmp_path, BuildIdentity("web-build", "127.0.0.90", ["nginx", "postgresql", "udev"]))

    assert files == ["etc/nginx/site.conf"]
    assert site.read_text() == f"listen {ADDRESS_TOKEN}:80;\nserver_name {HOSTNAME_TOKEN};\n"
    assert site.stat().st_mode & 0o777 == 0o640  # rewritten in place
    assert (tmp_path / "etc/other.conf").read_bytes() == b"peer 127.0.0.901 and web-build-2 and 10.127.0.0.90\n"
    assert (tmp_path / "var/log/nginx/access.log").read_bytes() == b"127.0.0.90 web-build\n"
    manifest = json.loads((tmp_path / IMAGE_HOST_MANIFEST).read_text())
    assert manifest == {"tokens": {"hostname": HOSTNAME_TOKEN, "address": ADDRESS_TOKEN},
                        "files": ["etc/nginx/site.conf"], "services": ["nginx", "postgresql"]}
