"""What galaxy commands work with: credentials (Docker's format), the registry file, the configuration, the
content cache, and a role's metadata as the artifact carries it."""

from __future__ import annotations

import base64
import json
import stat
from pathlib import Path

import pytest

from runner.config import load_config
from runner.errors import ParseError
from runner.galaxy.archive import sha256_digest
from runner.galaxy.artifact import Dependency, Manifest, dependencies_of, read_role_meta
from runner.galaxy.cache import ContentCache
from runner.galaxy.client import Connection, is_loopback
from runner.galaxy.context import galaxy_context
from runner.galaxy.credentials import Credentials, CredentialStore
from runner.galaxy.errors import GalaxyError, VerificationError


def test_credentials_are_stored_as_docker_does_and_read_from_docker_too(tmp_path: Path) -> None:
    docker = tmp_path / "docker.json"
    bob = base64.b64encode(b"bob:pw").decode()
    docker.write_text(json.dumps({"auths": {"https://ghcr.example.com": {"auth": bob}}}))
    store = CredentialStore(tmp_path / "auth.json", docker)
    store.save("reg.example.com:5000", Credentials("alice", "s3cret"))
    written = json.loads((tmp_path / "auth.json").read_text())
    assert written == {"auths": {"reg.example.com:5000": {"auth": base64.b64encode(b"alice:s3cret").decode()}}}
    assert stat.S_IMODE((tmp_path / "auth.json").stat().st_mode) == 0o600
    assert store.get("reg.example.com:5000") == Credentials("alice", "s3cret")
    assert store.get("ghcr.example.com") == Credentials("bob", "pw")
    assert store.get("other.example.com") is None
    assert "s3cret" not in repr(store.get("reg.example.com:5000"))
    assert store.remove("reg.example.com:5000") and not store.remove("reg.example.com:5000")
    assert store.get("reg.example.com:5000") is None


def test_plain_http_only_for_loopback_or_when_asked() -> None:
    assert is_loopback("127.0.0.1:5000") and is_loopback("localhost") and is_loopback("[::1]:5000")
    assert not is_loopback("reg.example.com:5000") and not is_loopback("10.0.0.1:5000")
    assert not Connection("reg.example.com").plain_http_allowed
    assert Connection("reg.example.com", insecure=True).plain_http_allowed


def _config(tmp_path: Path, galaxy: str) -> object:
    (tmp_path / "provisioning.cfg").write_text(f"[defaults]\nroles_path = roles\n[galaxy]\n{galaxy}")
    return load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)


def test_a_registry_file_gives_registry_namespace_tls_credentials_and_retries(tmp_path: Path) -> None:
    (tmp_path / "password").write_text("from-file\n")
    (tmp_path / "registry.yml").write_text("""deployment: remote
type: harbor
endpoint: harbor.example.com
tls_enabled: true
ca_cert_path: ca.pem
auth_required: true
username: ci
password_path: password
remote:
  timeout: 7
  retries: 1
namespaces:
  extensions: team-roles
""")
    context = galaxy_context(_config(tmp_path, "registry_file = registry.yml\ncache_dir = cache\n"))
    assert context.registry == "harbor.example.com"  # harbor with no port: HTTPS's own
    assert context.namespace == "team-roles"
    assert context.install_dir == tmp_path / "roles"
    assert context.reference("redis:^1").source == "oci://harbor.example.com/team-roles/redis"
    connection = context.connection("harbor.example.com")
    assert connection.credentials == Credentials("ci", "from-file")
    assert connection.ca_bundle == str(tmp_path / "ca.pem")
    assert (connection.timeout, connection.retries) == (7.0, 1)
    assert context.cache.root == tmp_path / "cache"
    # The plain settings win over the file's endpoint and namespace.
    plain = galaxy_context(_config(tmp_path, "registry_file = registry.yml\nregistry = 127.0.0.1:5000\n"
                                             "namespace = mine\n"))
    assert plain.reference("redis").source == "oci://127.0.0.1:5000/mine/redis"


def test_a_bad_registry_file_is_reported_with_the_schema_message_at_its_place(tmp_path: Path) -> None:
    (tmp_path / "registry.yml").write_text("deployment: remote\ntype: zot\nendpoint: r.example.com\nport: 70000\n"
                                           "namespaces: {}\nremote: {}\n")
    with pytest.raises(ParseError) as raised:
        galaxy_context(_config(tmp_path, "registry_file = registry.yml\n"))
    assert "Port must be 1-65535" in raised.value.message
    assert raised.value.position.line == 4


def test_the_cache_drops_content_that_no_longer_matches_its_digest(tmp_path: Path) -> None:
    cache = ContentCache(tmp_path)
    digest = sha256_digest(b"role bytes")
    path = cache.store(digest, b"role bytes")
    assert cache.read(digest) == b"role bytes"
    path.write_bytes(b"rot bytes!")
    assert cache.read(digest) is None and not path.exists()
    with pytest.raises(VerificationError, match="does not match its digest"):
        cache.store(digest, b"other")


def test_dependencies_come_from_meta_dependencies_and_taskserv_requires(tmp_path: Path) -> None:
    (tmp_path / "meta").mkdir()
    (tmp_path / "meta" / "main.yml").write_text("""dependencies:
  - os
  - role: runc
    src: oci://reg.example.com/base/runc
    version: "^1.1"
taskserv:
  version: "1.7.0"
  requires: ["containerd>=1.6", "runc", {name: cni, version: "~1.3"}]
""")
    assert dependencies_of(read_role_meta(tmp_path)) == [
        Dependency(name="os"),
        Dependency(name="runc", source="oci://reg.example.com/base/runc", version="^1.1"),
        Dependency(name="containerd", version=">=1.6"),
        Dependency(name="cni", version="~1.3"),
    ]


def test_only_role_artifacts_are_read_as_roles() -> None:
    image = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
             "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": "sha256:" + "0" * 64,
                        "size": 2},
             "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": "sha256:" + "1" * 64,
                         "size": 3}]}
    with pytest.raises(GalaxyError, match="is not a role artifact"):
        Manifest.from_bytes(json.dumps(image).encode(), "oci://reg.example.com/team/nginx:1.0.0")
