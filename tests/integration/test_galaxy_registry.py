"""provisioning-galaxy against a real registry: Debian's docker-registry (distribution) started by the tests on a
loopback port, once with htpasswd basic auth over plain HTTP and once with TLS from a CA the tests make.

Every command goes through ``provisioning-galaxy`` itself (in-process, with click's runner) with a home of its
own: configuration, credentials and content cache live in a temporary directory, never in the developer's.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import http.server
import ipaddress
import json
import shutil
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID

from runner.galaxy.local_registry import BINARIES, LocalRegistry
from tests.support.galaxy import PASSWORD, USER, Galaxy, free_port, make_role
from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.skipif(not any(shutil.which(name) for name in BINARIES),
                                reason="no registry binary (apt-get install docker-registry)")



@pytest.mark.hosts
def test_round_trip_init_push_install_lock_frozen_offline_and_run(basic_registry: LocalRegistry, tmp_path: Path,
                                                                   request: pytest.FixtureRequest,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    registry = basic_registry.registry
    galaxy = Galaxy(tmp_path / "home")
    work = tmp_path / "work"
    work.mkdir()
    # Without credentials the registry says so, and how to fix it.
    refused = galaxy("role", "versions", f"oci://{registry}/team/base", expect=1)
    assert f"provisioning-galaxy login {registry}" in refused.stderr
    assert "Login Succeeded" in galaxy.login(registry).stdout
    assert PASSWORD not in galaxy.auth_file.read_text()  # base64 as Docker keeps it, and never printed

    # init, build twice (same digest), push three versions of a base role and one app role that needs it.
    assert "created successfully" in galaxy("role", "init", "base", "--init-path", str(work)).stdout
    (work / "base" / "tasks" / "main.yml").write_text(
        "- name: leave a mark\n  copy:\n    content: \"base {{ base_flavour }}\\n\"\n    dest: \"{{ base_marker }}\"\n")
    (work / "base" / "defaults" / "main.yml").write_text("base_flavour: plain\nbase_marker: /tmp/galaxy-base\n")
    first = galaxy("role", "build", str(work / "base"), "-o", str(tmp_path / "one.tar.gz")).stdout.strip()
    second = galaxy("role", "build", str(work / "base"), "-o", str(tmp_path / "two.tar.gz")).stdout.strip()
    assert first == second and first.startswith("sha256:")
    assert "sha256:" + hashlib.sha256((tmp_path / "one.tar.gz").read_bytes()).hexdigest() == first
    base = f"oci://{registry}/team/base"
    pushed = {version: galaxy("role", "push", str(work / "base"), f"{base}:{version}").stdout.split()[-1]
              for version in ("1.0.0", "1.2.0", "2.0.0")}
    again = galaxy("role", "push", str(work / "base"), f"{base}:1.2.0", expect=1)
    assert "already in the registry" in again.stderr and "--force" in again.stderr
    make_role(work, "app", "galaxy_info: {description: The app}\ndependencies:\n  - role: base\n    version: '^1.0'\n",
              "- name: app says\n  debug:\n    msg: app on {{ inventory_hostname }}\n")
    galaxy("role", "push", str(work / "app"), f"oci://{registry}/team/app:0.3.0", "--latest")

    versions = galaxy("role", "versions", base).stdout.split()
    assert versions == ["1.0.0", "1.2.0", "2.0.0"]
    info = galaxy("role", "info", f"oci://{registry}/team/app:^0.3").stdout
    assert "org.opencontainers.image.version: 0.3.0" in info and "version: ^1.0" in info

    # skopeo reads the manifest we pushed, and its digest is the one push printed.
    raw = subprocess.run(["skopeo", "inspect", "--raw", "--authfile", str(galaxy.auth_file), "--tls-verify=false",
                          f"docker://{registry}/team/base:1.2.0"], capture_output=True, check=True).stdout
    assert "sha256:" + hashlib.sha256(raw).hexdigest() == pushed["1.2.0"]
    manifest = json.loads(raw)
    assert manifest["artifactType"] == "application/vnd.provisioning.role.v1"
    assert manifest["annotations"]["org.opencontainers.image.version"] == "1.2.0"

    # install by constraint: app 0.3.0 asks for base ^1.0, so base resolves to 1.2.0, not 2.0.0.
    requirements = work / "requirements.yml"
    requirements.write_text(f"roles:\n  - src: oci://{registry}/team/app\n    version: '>=0.1,<1'\n")
    roles = tmp_path / "roles"
    installed = galaxy("install", "-r", str(requirements), "-p", str(roles)).stdout
    assert "base (1.2.0) was installed successfully" in installed
    lock = (work / "requirements.lock").read_text()
    assert f"digest: {pushed['1.2.0']}" in lock and "version: 0.3.0" in lock
    listed = galaxy("role", "list", "-p", str(roles)).stdout
    assert f"- base, 1.2.0 ({pushed['1.2.0']})" in listed and "- app, 0.3.0" in listed

    # --frozen with the registry stopped: everything comes from the lock and the cache.
    basic_registry.stop()
    shutil.rmtree(roles)
    frozen = galaxy("install", "-r", str(requirements), "-p", str(roles), "--frozen").stdout
    assert "base (1.2.0) was installed successfully" in frozen and "downloading" not in frozen
    offline = galaxy("install", "-r", str(requirements), "-p", str(roles)).stdout
    assert "already installed" in offline
    requirements.write_text(requirements.read_text().replace("<1", "<0.9"))
    changed = galaxy("install", "-r", str(requirements), "-p", str(roles), "--frozen", expect=1)
    assert "changed since" in changed.stderr

    # A playbook using the installed role runs on a test host, found through roles_path.
    inventory_path = request.getfixturevalue("inventory_path")  # skips here when test hosts cannot run
    playbook = tmp_path / "site.yml"
    playbook.write_text(f"- hosts: host1\n  gather_facts: false\n  vars:\n"
                        f"    base_marker: /tmp/galaxy-{uuid.uuid4().hex}\n  roles:\n    - app\n")
    monkeypatch.setenv("PROVISIONING_ROLES_PATH", str(roles))
    run = run_playbook(inventory_path, playbook)
    assert run.exit_code == 0, run.output
    assert run.msg("app : app says") == {"host1": "app on host1"}
    assert run.task("base : leave a mark")["host1"]["changed"] is True
    assert PASSWORD not in galaxy.printed and "YWxpY2U6" not in galaxy.printed  # nor its base64 form


def test_tampered_blob_is_refused_and_nothing_is_installed(basic_registry: LocalRegistry, tmp_path: Path) -> None:
    publisher = Galaxy(tmp_path / "publisher")
    publisher.login(basic_registry.registry)
    role = make_role(tmp_path, "web", "galaxy_info: {description: web}\n", "- debug: {msg: web}\n")
    ref = f"oci://{basic_registry.registry}/team/web:1.0.0"
    publisher("role", "push", str(role), ref)
    archive = publisher("role", "build", str(role), "-o", str(tmp_path / "web.tar.gz")).stdout.strip()
    blob = basic_registry.storage_dir / "docker/registry/v2/blobs/sha256" / archive[7:9] / archive[7:] / "data"
    data = bytearray(blob.read_bytes())
    data[len(data) // 2] ^= 0xFF  # same size, different content
    blob.write_bytes(bytes(data))

    consumer = Galaxy(tmp_path / "consumer")  # an empty cache: the blob must come from the registry
    consumer.login(basic_registry.registry)
    roles = tmp_path / "roles"
    refused = consumer("role", "pull", ref, "-p", str(roles), expect=1)
    assert f"blob {archive} of team/web does not match its digest" in refused.stderr
    assert "nothing was installed" in refused.stderr
    assert not (roles / "web").exists()
    assert not list(consumer.cache.rglob(archive[7:]))  # the bad bytes were not cached either


def test_wrong_password_is_refused_without_echoing_it(basic_registry: LocalRegistry, tmp_path: Path) -> None:
    galaxy = Galaxy(tmp_path / "home")
    refused = galaxy("login", basic_registry.registry, "-u", USER, "--password-stdin", input="wrong-secret\n",
                     expect=1)
    assert f"refused the credentials of '{USER}'" in refused.stderr
    assert "wrong-secret" not in refused.output
    assert not galaxy.auth_file.exists()


# --- TLS ------------------------------------------------------------------------------------------------------


def _key() -> ec.EllipticCurvePrivateKey:
    return ec.generate_private_key(ec.SECP256R1())


def _certificate(subject: str, key: ec.EllipticCurvePrivateKey, issuer: tuple[x509.Name, ec.EllipticCurvePrivateKey]
                 | None, *, ca: bool) -> x509.Certificate:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)])
    issuer_name, issuer_key = issuer or (name, key)
    now = datetime.datetime.now(datetime.UTC)
    builder = (x509.CertificateBuilder().subject_name(name).issuer_name(issuer_name).public_key(key.public_key())
               .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=1))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if not ca:
        builder = builder.add_extension(x509.SubjectAlternativeName(
            [x509.IPAddress(ipaddress.ip_address("127.0.0.1")), x509.DNSName("localhost")]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


def _pem(path: Path, item: x509.Certificate | ec.EllipticCurvePrivateKey) -> Path:
    if isinstance(item, x509.Certificate):
        path.write_bytes(item.public_bytes(serialization.Encoding.PEM))
    else:
        path.write_bytes(item.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    return path


@pytest.fixture
def tls_registry(tmp_path: Path) -> Iterator[tuple[LocalRegistry, Path]]:
    """A registry with a certificate from a CA made here; yields it and the CA certificate (PEM)."""
    certs = tmp_path / "certs"
    certs.mkdir()
    ca_key, server_key = _key(), _key()
    ca = _certificate("provisioning test CA", ca_key, None, ca=True)
    server = _certificate("127.0.0.1", server_key, (ca.subject, ca_key), ca=False)
    registry = LocalRegistry(data_dir=tmp_path / "registry", port=free_port(), tls_cert=_pem(certs / "server.pem",
                             server), tls_key=_pem(certs / "server.key", server_key))
    with registry:
        yield registry, _pem(certs / "ca.pem", ca)


def test_tls_registry_with_a_private_ca_and_a_registry_file(tls_registry: tuple[LocalRegistry, Path],
                                                            tmp_path: Path) -> None:
    registry, ca = tls_registry
    address = registry.registry
    role = make_role(tmp_path, "cache", "galaxy_info: {description: cache}\n", "- debug: {msg: cache}\n")
    untrusted = Galaxy(tmp_path / "untrusted")
    refused = untrusted("role", "push", str(role), f"oci://{address}/team/cache:1.0.0", expect=1)
    assert f"TLS with {address} failed: certificate verify failed" in refused.stderr
    assert "ca_cert" in refused.stderr

    trusted = Galaxy(tmp_path / "trusted")
    digest = trusted("role", "push", str(role), f"oci://{address}/team/cache:1.0.0", "--ca-cert", str(ca)
                     ).stdout.split()[-1]

    # skopeo trusts the CA from a certificate directory, and reads the same manifest.
    cert_dir = tmp_path / "skopeo-certs"
    cert_dir.mkdir()
    shutil.copy(ca, cert_dir / "ca.crt")
    raw = subprocess.run(["skopeo", "inspect", "--raw", "--cert-dir", str(cert_dir),
                          f"docker://{address}/team/cache:1.0.0"], capture_output=True, check=True).stdout
    assert "sha256:" + hashlib.sha256(raw).hexdigest() == digest

    # A registry file (the seed schema's OCIRegistryConfig) names the registry, its CA and namespace, so the
    # requirements name the role alone.
    host, port = address.rsplit(":", 1)
    registry_file = tmp_path / "registry.yml"
    registry_file.write_text(f"deployment: remote\ntype: distribution\nendpoint: {host}\nport: {port}\n"
                             f"tls_enabled: true\nca_cert_path: {ca}\nremote:\n  retries: 0\n"
                             "namespaces:\n  extensions: team\n")
    configured = Galaxy(tmp_path / "configured", settings=f"registry_file = {registry_file}\n")
    requirements = tmp_path / "requirements.yml"
    requirements.write_text("- name: cache\n  version: ~1.0\n")
    roles = tmp_path / "roles"
    installed = configured("install", "-r", str(requirements), "-p", str(roles)).stdout
    assert "cache (1.0.0) was installed successfully" in installed
    assert f"source: oci://{address}/team/cache" in (tmp_path / "requirements.lock").read_text()
    assert (roles / "cache" / "tasks" / "main.yml").read_text() == "- debug: {msg: cache}\n"


# --- Bearer tokens --------------------------------------------------------------------------------------------


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class TokenServer(http.server.ThreadingHTTPServer):
    """A token service as distribution's ``auth: token`` expects one: for the right user and password, a JWT
    (ES256, its certificate in ``x5c``) granting what the ``scope`` asks; anything else gets a 401."""

    def __init__(self, key: ec.EllipticCurvePrivateKey, certificate: x509.Certificate):
        super().__init__(("127.0.0.1", 0), _TokenHandler)
        self.key, self.certificate, self.issued = key, certificate, 0

    @property
    def realm(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/token"

    def token(self, scope: str) -> str:
        access = []
        if scope:
            kind, name, actions = scope.split(":")
            access.append({"type": kind, "name": name, "actions": actions.split(",")})
        now = int(time.time())
        header = {"typ": "JWT", "alg": "ES256",
                  "x5c": [base64.b64encode(self.certificate.public_bytes(serialization.Encoding.DER)).decode()]}
        claims = {"iss": "provisioning-tests", "sub": USER, "aud": "test-registry", "exp": now + 300,
                  "nbf": now - 10, "iat": now - 10, "jti": uuid.uuid4().hex, "access": access}
        signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(claims).encode())}"
        r, s = decode_dss_signature(self.key.sign(signing_input.encode(), ec.ECDSA(hashes.SHA256())))
        self.issued += 1
        return f"{signing_input}.{_b64(r.to_bytes(32, 'big') + s.to_bytes(32, 'big'))}"


class _TokenHandler(http.server.BaseHTTPRequestHandler):
    server: TokenServer

    def do_GET(self) -> None:
        expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        if self.headers.get("Authorization") != expected:
            self.send_response(401)
            self.end_headers()
            return
        scope = parse_qs(urlsplit(self.path).query).get("scope", [""])[0]
        body = json.dumps({"token": self.server.token(scope)}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


class TokenRegistry(LocalRegistry):
    """The local registry with ``auth: token`` pointing at a token server."""

    token_realm: str = ""
    token_roots: Path | None = None

    def config_text(self) -> str:
        return super().config_text() + (
            f"auth:\n  token:\n    realm: {self.token_realm}\n    service: test-registry\n"
            f"    issuer: provisioning-tests\n    rootcertbundle: {self.token_roots}\n")


@pytest.fixture
def token_registry(tmp_path: Path) -> Iterator[tuple[LocalRegistry, TokenServer]]:
    ca_key, signer_key = _key(), _key()
    ca = _certificate("token CA", ca_key, None, ca=True)
    signer = _certificate("token signer", signer_key, (ca.subject, ca_key), ca=False)
    server = TokenServer(signer_key, signer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    registry = TokenRegistry(data_dir=tmp_path / "registry", port=free_port())
    registry.token_realm, registry.token_roots = server.realm, _pem(tmp_path / "token-ca.pem", ca)
    try:
        with registry:
            yield registry, server
    finally:
        server.shutdown()
        server.server_close()


def test_bearer_token_auth_answers_the_challenge_for_each_repository(
        token_registry: tuple[LocalRegistry, TokenServer], tmp_path: Path) -> None:
    registry, tokens = token_registry
    galaxy = Galaxy(tmp_path / "home")
    refused = galaxy("role", "versions", f"oci://{registry.registry}/team/none", expect=1)
    assert f"refused anonymous access: run 'provisioning-galaxy login {registry.registry}'" in refused.stderr
    galaxy.login(registry.registry)
    for name in ("one", "two"):  # a token per repository scope: the one held for 'one' does not open 'two'
        role = make_role(tmp_path, name, f"galaxy_info: {{description: {name}}}\n", "- debug: {msg: hi}\n")
        galaxy("role", "push", str(role), f"oci://{registry.registry}/team/{name}:1.0.0")
    assert galaxy("role", "versions", f"oci://{registry.registry}/team/one").stdout.split() == ["1.0.0"]
    roles = tmp_path / "roles"
    galaxy("role", "pull", f"oci://{registry.registry}/team/two:^1", "-p", str(roles))
    assert (roles / "two" / "tasks" / "main.yml").is_file()
    assert tokens.issued >= 3
    assert PASSWORD not in galaxy.printed
