"""Golden images and taskserv update checks without hosts: a layer's content digest, image references and the
version records, the next version, what pruning removes, and reading ``apt-cache policy`` and a role's packages."""

from __future__ import annotations

import os
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest

from runner.cli.image_build import next_version
from runner.cli.infra_images import prunable
from runner.cli.taskserv_sources import parse_policy, role_packages
from runner.errors import UserError
from runner.models.validation import validate
from runner.platform_specs.golden_image import GoldenImageVersion
from runner.providers.base import ProviderError
from runner.providers.golden import ImageCatalog, ImageEntry, ImageRef, parse_ref
from runner.providers.local_layers import tree_digest
from runner.taskservs.catalog import Taskserv


def entry(name: str, version: str, deprecated: bool = False) -> ImageEntry:
    record = validate(GoldenImageVersion, {
        "image_name": name, "version": version, "created_at": datetime.now(UTC).isoformat(),
        "image_path": f"/layers/{name}", "image_size_gb": 0.5, "checksum": "a" * 64, "deprecated": deprecated})
    return ImageEntry(record, "local", "b" * 64)


def test_a_layer_digest_follows_content_modes_and_links_not_times(tmp_path: Path) -> None:
    root = tmp_path / "layer"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "motd").write_text("hello\n")
    (root / "link").symlink_to("etc/motd")
    first = tree_digest(root)
    os.utime(root / "etc" / "motd", (0, 0))
    assert tree_digest(root) == first
    (root / "etc" / "motd").chmod(0o600)
    assert tree_digest(root) != first
    (root / "etc" / "motd").chmod(0o644)
    (root / "link").unlink()
    (root / "link").symlink_to("etc/other")
    assert tree_digest(root) != first


def test_references_name_an_image_and_maybe_a_version() -> None:
    assert parse_ref("golden:web") == ImageRef("web")
    assert parse_ref("golden:web@1.2.0") == ImageRef("web", "1.2.0")
    with pytest.raises(UserError, match="expected golden:NAME or golden:NAME@VERSION"):
        parse_ref("golden:../etc")


def test_the_catalog_finds_the_newest_current_version_and_says_what_there_is(tmp_path: Path) -> None:
    catalog = ImageCatalog(tmp_path)
    for version, deprecated in (("1.9.0", False), ("1.10.0", False), ("2.0.0", True)):
        catalog.add(entry("web", version, deprecated))
    assert catalog.find(ImageRef("web")).record.version == "1.10.0"  # 2.0.0 is deprecated; 1.10 > 1.9
    assert catalog.find(ImageRef("web", "2.0.0")).record.deprecated
    with pytest.raises(ProviderError, match=r"has no version 3.0.0 \(it has 1.9.0, 1.10.0, 2.0.0\)"):
        catalog.find(ImageRef("web", "3.0.0"))
    with pytest.raises(ProviderError, match="no golden image 'wbe'") as raised:
        catalog.find(ImageRef("wbe"))
    assert "web" in (raised.value.hint or "")
    with pytest.raises(ProviderError, match="exists already"):
        catalog.add(entry("web", "1.9.0"))
    assert next_version(catalog, "web") == "2.0.1" and next_version(catalog, "new") == "1.0.0"


def test_a_damaged_record_is_named_not_a_traceback(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "1.0.0.json").write_text('{"provider": "local", "image_id": "x", "record": {}}')
    with pytest.raises(ProviderError, match=r"(?s)1.0.0.json: not a golden image record \(.*image_name"):
        ImageCatalog(tmp_path).entries()


def test_prune_keeps_the_newest_current_versions() -> None:
    versions = [entry("web", "1.0.0"), entry("web", "1.1.0"), entry("web", "1.2.0", deprecated=True),
                entry("web", "1.3.0")]
    assert [e.record.version for e in prunable(versions, 1)] == ["1.0.0", "1.1.0", "1.2.0"]
    assert [e.record.version for e in prunable(versions, 2)] == ["1.0.0", "1.2.0"]


def test_apt_cache_policy_as_this_machine_prints_it() -> None:
    done = subprocess.run(["apt-cache", "policy", "openssh-server", "no-such-package-here"], capture_output=True,
                          text=True, env={**os.environ, "LC_ALL": "C"}, check=True)
    installed = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "openssh-server"], capture_output=True,
                               text=True, check=True).stdout
    policy = parse_policy(done.stdout)
    assert policy["openssh-server"].installed == installed
    assert policy["openssh-server"].candidate is not None
    assert "no-such-package-here" not in policy  # apt says nothing of a package it does not know


def test_parse_policy_reads_none_as_not_installed() -> None:
    text = "redis-server:\n  Installed: (none)\n  Candidate: 5:7.0.15-1~deb12u1\n  Version table:\n"
    assert parse_policy(text)["redis-server"].installed is None


def test_a_roles_packages_come_from_its_defaults_without_pins(tmp_path: Path) -> None:
    role = tmp_path / "redis"
    (role / "defaults").mkdir(parents=True)
    (role / "defaults" / "main.yml").write_text('redis_packages: ["redis-server=5:7.0.15*", "{{ extra }}"]\n')
    assert role_packages(Taskserv("redis", role)) == ["redis-server"]
    assert role_packages(Taskserv("files", tmp_path / "files")) == []
