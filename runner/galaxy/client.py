"""Talking to one OCI registry: oras-py's client, completed where a role artifact needs more.

oras-py (``oras.provider.Registry``) does the HTTP work: the Basic and Bearer-token authentication handshakes,
blob upload sessions, blob existence checks, tag listing with pagination. This subclass adds what it lacks:

- choosing HTTPS or plain HTTP the way Docker does (HTTPS first; HTTP only for a loopback registry or with
  ``insecure``), and the auth scheme from the registry's ``WWW-Authenticate`` challenge;
- timeouts on every request and a bounded retry policy (the registry file's ``remote`` settings) in place of
  oras's fixed one, which retries an unanswerable 401 for minutes;
- manifests pushed and fetched as exact bytes, so digests can be stated before a push and checked after a pull
  (oras re-serialises manifests and cannot set ``artifactType``);
- blob downloads checked against their digest and size while they stream, before anything uses them;
- errors as ``RegistryError`` messages that say what failed, never with credentials in them.
"""

from __future__ import annotations

import hashlib
import ipaddress
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import oras.auth
import oras.container
import oras.provider
import requests
from requests.adapters import HTTPAdapter

from runner.galaxy.archive import sha256_digest
from runner.galaxy.artifact import MANIFEST_MEDIA_TYPE, Descriptor
from runner.galaxy.credentials import Credentials
from runner.galaxy.errors import (
    AuthenticationError,
    GalaxyError,
    NotFoundError,
    RegistryError,
    VerificationError,
)

_ORAS_REQUEST = oras.provider.Registry.do_request.__wrapped__  # without oras's own retry decorator
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
MANIFEST_ACCEPT = ", ".join([MANIFEST_MEDIA_TYPE, "application/vnd.oci.image.index.v1+json"])
CHUNK = 1 << 16


@dataclass(frozen=True)
class Connection:
    """How to reach one registry: TLS, authentication, and patience."""

    registry: str
    ca_bundle: str | None = None
    verify_tls: bool = True
    insecure: bool = False
    credentials: Credentials | None = None
    token: str | None = None
    timeout: float = 30.0
    retries: int = 3
    retry_delay: float = 5.0
    retry_backoff: float = 2.0
    proxies: tuple[tuple[str, str], ...] = ()

    @property
    def plain_http_allowed(self) -> bool:
        return self.insecure or is_loopback(self.registry)


def is_loopback(registry: str) -> bool:
    host = registry.rsplit(":", 1)[0] if registry.count(":") == 1 or registry.startswith("[") else registry
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _TimeoutAdapter(HTTPAdapter):
    """oras makes its requests without a timeout; every one gets the connection's."""

    def __init__(self, timeout: float):
        super().__init__()
        self.timeout = timeout

    def send(self, request: requests.PreparedRequest, **kwargs: Any) -> requests.Response:  # type: ignore[override]
        kwargs["timeout"] = kwargs.get("timeout") or self.timeout
        return super().send(request, **kwargs)


class RegistryClient(oras.provider.Registry):
    """One registry, connected on first use."""

    auth: Any  # oras's authentication backend, set by oras and replaced by _set_auth (oras ships no types)

    def __init__(self, connection: Connection):
        verify: bool | str = connection.ca_bundle or connection.verify_tls
        super().__init__(hostname=connection.registry, insecure=False, tls_verify=verify, auth_backend="token")
        self.connection = connection
        adapter = _TimeoutAdapter(connection.timeout)
        self.session.mount("https://", adapter)
        self.session.mount("http://", adapter)
        self.session.proxies.update(dict(connection.proxies))
        self.session.trust_env = not connection.proxies
        self._connected = False

    # --- connecting -------------------------------------------------------------------------------------------

    def connect(self) -> None:
        """Find the scheme the registry speaks and answer its authentication challenge; check the credentials."""
        if self._connected:
            return
        response = self._ping()
        challenge = response.headers.get("WWW-Authenticate", "")
        if response.status_code == 401:
            self._set_auth(challenge.split(" ", 1)[0].lower())
            checked = self.do_request(f"{self.prefix}://{self.hostname}/v2/", "GET")
            if checked.status_code in (401, 403):
                raise self._auth_error()
        elif response.status_code != 200:
            raise RegistryError(f"{self.hostname} does not answer as an OCI registry (GET /v2/ gave "
                                f"{response.status_code})")
        self._connected = True

    def _ping(self) -> requests.Response:
        schemes = ["https", "http"] if self.connection.plain_http_allowed else ["https"]
        failure: Exception | None = None
        for scheme in schemes:
            try:
                response = self.session.get(f"{scheme}://{self.hostname}/v2/", verify=self._tls_verify)
            except requests.exceptions.RequestException as exc:
                failure = failure or exc
                continue
            if response.status_code in (200, 401) or "Docker-Distribution-Api-Version" in response.headers:
                self.prefix = self.auth.prefix = scheme
                return response
            failure = failure or RegistryError(f"GET {scheme}://{self.hostname}/v2/ gave {response.status_code}")
        raise self._unreachable(failure)

    def _set_auth(self, scheme: str) -> None:
        credentials = self.connection.credentials
        if scheme == "basic":
            if credentials is None:
                raise AuthenticationError(f"{self.hostname} wants a user name and password: run "
                                          f"'provisioning-galaxy login {self.hostname}' first")
            self.auth = oras.auth.get_auth_backend("basic", self.session, self.prefix == "http", self._tls_verify)
        if credentials is not None:
            self.auth.set_basic_auth(credentials.username, credentials.password)
        if self.connection.token and scheme == "bearer":
            self.auth.set_token_auth(self.connection.token)

    def _auth_error(self) -> AuthenticationError:
        credentials = self.connection.credentials
        who = f"the credentials of '{credentials.username}'" if credentials else "anonymous access"
        return AuthenticationError(f"{self.hostname} refused {who}: run 'provisioning-galaxy login {self.hostname}'")

    def _unreachable(self, failure: Exception | None) -> RegistryError:
        if isinstance(failure, requests.exceptions.SSLError):
            hint = "" if self.connection.ca_bundle else \
                " (a registry with a private CA needs [galaxy] ca_cert, --ca-cert or ca_cert_path)"
            return RegistryError(f"TLS with {self.hostname} failed: {_reason(failure)}{hint}")
        if isinstance(failure, RegistryError):
            return failure
        plain = "" if self.connection.plain_http_allowed else \
            " (plain HTTP is only tried for loopback registries or with --insecure)"
        return RegistryError(f"cannot reach the registry {self.hostname}: {_reason(failure)}{plain}")

    # --- requests ---------------------------------------------------------------------------------------------

    def do_request(self, url: str, method: str = "GET", data: Any = None, headers: dict[str, str] | None = None,
                   json: dict[str, Any] | None = None, stream: bool = False) -> requests.Response:
        """oras's request (with its authentication handshake), under our timeout and retry policy."""
        delay, attempt, fresh_token = self.connection.retry_delay, 0, False
        while True:
            sent = dict(headers or {})
            if isinstance(self.auth, oras.auth.BasicAuth):
                sent.update(self.auth.get_auth_header())  # known to be needed: spare the 401 round trip
            try:
                response = _ORAS_REQUEST(self, url, method, data, sent, json, stream)
            except requests.exceptions.SSLError as exc:
                raise self._unreachable(exc) from None
            except (requests.exceptions.ConnectionError, requests.exceptions.Timeout) as exc:
                if attempt >= self.connection.retries or "refused" in str(exc):
                    raise self._unreachable(exc) from None
            except ValueError:  # oras: the 401 challenge could not be answered
                raise self._auth_error() from None
            else:
                if response.status_code == 401 and self._drop_token() and not fresh_token:
                    # oras reuses the token it holds for every request, whatever the scope; a token for another
                    # repository (or for /v2/ alone) gets a 401: ask again, for this request's scope.
                    fresh_token = True
                    continue
                if response.status_code not in RETRY_STATUSES or attempt >= self.connection.retries:
                    return response
            time.sleep(delay)
            delay, attempt = delay * self.connection.retry_backoff, attempt + 1

    def _drop_token(self) -> bool:
        """Forget the Bearer token held; whether there was one."""
        if isinstance(self.auth, oras.auth.TokenAuth) and self.auth.token is not None:
            self.auth.token = None
            return True
        return False

    def _check_200_response(self, response: requests.Response) -> None:
        """oras calls this after its own requests (tag listing, uploads): our errors instead of its ValueError."""
        if response.status_code not in (200, 201, 202):
            raise self.error_for(response, f"{response.request.method} {response.request.path_url}")

    def error_for(self, response: requests.Response, what: str) -> RegistryError:
        detail = _oci_errors(response)
        if response.status_code in (401, 403):
            return AuthenticationError(f"{self.hostname} denied {what}{detail}")
        if response.status_code == 404:
            return NotFoundError(f"{what}: not found in {self.hostname}{detail}")
        return RegistryError(f"{self.hostname} answered {response.status_code} to {what}{detail}")

    def _container(self, repository: str) -> oras.container.Container:
        # Built part by part: oras's parser would take a namespace with a dot for a registry host.
        namespace, _, name = repository.rpartition("/")
        container = oras.container.Container(name, registry=self.hostname)
        container.namespace = namespace or None
        return container

    # --- what roles need --------------------------------------------------------------------------------------

    def tags(self, repository: str) -> list[str]:
        self.connect()
        try:
            return list(self.get_tags(self._container(repository)))
        except NotFoundError:
            raise NotFoundError(f"there is no role {repository} in {self.hostname}") from None

    def has_manifest(self, repository: str, reference: str) -> bool:
        self.connect()
        url = f"{self.prefix}://{self._container(repository).manifest_url(reference)}"
        response = self.do_request(url, "HEAD", headers={"Accept": MANIFEST_ACCEPT})
        if response.status_code == 404:
            return False
        if response.status_code != 200:
            raise self.error_for(response, f"checking {repository}:{reference}")
        return True

    def manifest(self, repository: str, reference: str) -> tuple[bytes, str]:
        """The manifest's exact bytes and digest; a digest the registry or ``reference`` states must match."""
        self.connect()
        url = f"{self.prefix}://{self._container(repository).manifest_url(reference)}"
        response = self.do_request(url, "GET", headers={"Accept": MANIFEST_ACCEPT})
        if response.status_code != 200:
            raise self.error_for(response, f"the manifest of {repository}:{reference}")
        data = response.content
        digest = sha256_digest(data)
        for stated in (reference if reference.startswith("sha256:") else None,
                       response.headers.get("Docker-Content-Digest")):
            if stated and stated != digest:
                raise VerificationError(f"the manifest of {repository}:{reference} does not match its digest "
                                        f"{stated} (its content is {digest}); nothing was installed")
        return data, digest

    def download_verified(self, repository: str, descriptor: Descriptor, destination: Path) -> None:
        """Stream a blob into ``destination``, checking size and digest on the way; nothing is left on failure."""
        self.connect()
        response = self.get_blob(self._container(repository), descriptor.digest, stream=True)
        with response:
            if response.status_code != 200:
                raise self.error_for(response, f"blob {descriptor.digest} of {repository}")
            destination.parent.mkdir(parents=True, exist_ok=True)
            fd, partial = tempfile.mkstemp(prefix=".download.", dir=destination.parent)
            try:
                hasher, size = hashlib.sha256(), 0
                with os.fdopen(fd, "wb") as handle:
                    for chunk in response.iter_content(CHUNK):
                        size += len(chunk)
                        if size > descriptor.size:
                            break  # more than the manifest says: no need to read the rest
                        hasher.update(chunk)
                        handle.write(chunk)
                actual = "sha256:" + hasher.hexdigest()
                if size != descriptor.size:
                    more = "+" if size > descriptor.size else ""
                    problem = f"{size}{more} bytes received, {descriptor.size} expected"
                elif actual != descriptor.digest:
                    problem = f"its content is {actual}"
                else:
                    os.replace(partial, destination)
                    return
                raise VerificationError(f"blob {descriptor.digest} of {repository} does not match its digest "
                                        f"({problem}); nothing was installed")
            finally:
                if os.path.exists(partial):
                    os.unlink(partial)

    def push_blob(self, repository: str, data: bytes, media_type: str) -> None:
        self.connect()
        layer = {"mediaType": media_type, "digest": sha256_digest(data), "size": len(data)}
        with tempfile.NamedTemporaryFile(prefix="provisioning-blob-") as handle:
            handle.write(data)
            handle.flush()
            response = self.upload_blob(handle.name, self._container(repository), layer)
        self._check_200_response(response)

    def push_manifest(self, repository: str, tag: str, data: bytes) -> str:
        self.connect()
        url = f"{self.prefix}://{self._container(repository).manifest_url(tag)}"
        response = self.do_request(url, "PUT", data=data, headers={"Content-Type": MANIFEST_MEDIA_TYPE})
        if response.status_code not in (200, 201):
            raise self.error_for(response, f"pushing {repository}:{tag}")
        digest = sha256_digest(data)
        stated = response.headers.get("Docker-Content-Digest")
        if stated and stated != digest:
            raise GalaxyError(f"{self.hostname} stored {repository}:{tag} as {stated}, expected {digest}")
        return digest


def _oci_errors(response: requests.Response) -> str:
    try:
        errors = response.json().get("errors") or []
    except (ValueError, AttributeError):
        return ""
    messages = [str(error.get("message") or error.get("code")) for error in errors if isinstance(error, dict)]
    return f" ({'; '.join(messages)})" if messages else ""


def _reason(failure: Exception | None) -> str:
    """The innermost reason of a requests failure ('Connection refused', 'certificate verify failed')."""
    text = str(failure) if failure is not None else "no answer"
    for marker in ("Connection refused", "certificate verify failed", "timed out", "Name or service not known",
                   "wrong version number"):
        if marker in text:
            return marker
    return text
