"""UpCloud servers through its REST API 1.3, known by hostname; HTTP basic auth.

Credentials come from the provider settings or from ``UPCLOUD_USERNAME``/``UPCLOUD_PASSWORD``; the password is
never part of any message. 429 and 5xx answers (and dropped connections) are tried again with backoff,
honouring Retry-After; 401/403 are credential errors, 402 and limit conflicts (409) quota errors, and any
other 4xx fails at once with UpCloud's own error code and message.
"""

from __future__ import annotations

import os
import re
from typing import Any

import requests

from runner.infra.provider_settings import UpcloudProviderSettings
from runner.infra.servers import AnyServer, UpcloudServer
from runner.providers.base import CredentialsError, Provider, ProviderError, QuotaError, ServerState, TransientError
from runner.providers.retry import with_retries
from runner.providers.waiting import wait_until_running

API_VERSION = "1.3"
UUID_PATTERN = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$", re.IGNORECASE)
STOP_TIMEOUT_SECONDS = 60
_QUOTA_WORDS = ("LIMIT", "QUOTA", "CREDIT")


class UpcloudProvider(Provider):
    name = "upcloud"
    settings: UpcloudProviderSettings

    def __init__(self, settings: UpcloudProviderSettings):
        super().__init__(settings)
        username = settings.username or os.environ.get("UPCLOUD_USERNAME")
        password = settings.password or os.environ.get("UPCLOUD_PASSWORD")
        if not username or not password:
            raise CredentialsError("UpCloud needs credentials: set UPCLOUD_USERNAME and UPCLOUD_PASSWORD (or "
                                   "username and password in the upcloud provider settings)")
        self._auth = (username, password)
        self._base = f"{settings.api_url.rstrip('/')}/{API_VERSION}"
        self._http = requests.Session()

    def secrets(self) -> list[str]:
        return [*super().secrets(), self._auth[1]]

    # -- the provider interface ----------------------------------------------------------------------------

    def servers(self) -> list[ServerState]:
        listed = self._request("GET", "/server")["servers"]["server"]
        return [self._details(entry["uuid"]) for entry in listed]

    def find(self, name: str) -> ServerState | None:
        listed = self._request("GET", "/server")["servers"]["server"]
        matches = [entry for entry in listed if entry.get("hostname") == name]
        if len(matches) > 1:
            raise ProviderError(f"{len(matches)} UpCloud servers are named '{name}': servers are known by name, "
                                "so a name must be unique")
        return self._details(matches[0]["uuid"]) if matches else None

    def create(self, server: AnyServer) -> ServerState:
        assert isinstance(server, UpcloudServer)
        body = {"server": {
            "zone": server.zone, "title": server.hostname, "hostname": server.hostname, "plan": server.plan,
            "storage_devices": {"storage_device": [{
                "action": "clone", "storage": self._template(server.image or ""),
                "title": f"{server.hostname} system disk", "size": server.disk_gb, "tier": "maxiops"}]},
            "networking": {"interfaces": {"interface": [
                {"type": kind, "ip_addresses": {"ip_address": [{"family": "IPv4"}]}} for kind in server.network]}},
            "login_user": {"username": server.user or "root", "create_password": "no",
                           "ssh_keys": {"ssh_key": [_public_key(server)]}},
            "password_delivery": "none",
        }}
        return _state(self._request("POST", "/server", body)["server"])

    def start(self, state: ServerState) -> ServerState:
        return _state(self._request("POST", f"/server/{state.id}/start")["server"])

    def delete(self, state: ServerState, keep_storage: bool = False) -> None:
        if state.state != "stopped":
            self._request("POST", f"/server/{state.id}/stop",
                          {"stop_server": {"stop_type": "soft", "timeout": str(STOP_TIMEOUT_SECONDS)}})
            self._wait_stopped(state)
        self._request("DELETE", f"/server/{state.id}", params=None if keep_storage else {"storages": "1"})

    # -- the API ----------------------------------------------------------------------------------------------

    def _details(self, uuid: str) -> ServerState:
        return _state(self._request("GET", f"/server/{uuid}")["server"])

    def _wait_stopped(self, state: ServerState) -> None:
        def stopped() -> ServerState | None:
            current = self._details(state.id)
            return ServerState(current.name, self.name, current.id, current.state, current.state == "stopped")

        wait_until_running(stopped, state.name, self.settings.wait_timeout, self.settings.poll_interval)

    def _template(self, image: str) -> str:
        """A template's UUID: ``image`` itself, or the UUID of the public template titled ``image``."""
        if UUID_PATTERN.match(image):
            return image
        templates = self._request("GET", "/storage/template")["storages"]["storage"]
        for template in templates:
            if template.get("title") == image:
                return template["uuid"]
        titles = ", ".join(sorted(template.get("title", "") for template in templates))
        raise ProviderError(f"UpCloud has no template titled '{image}' (templates: {titles})")

    def _request(self, method: str, path: str, body: Any = None, params: dict[str, str] | None = None) -> Any:
        url = self._base + path

        def once() -> Any:
            try:
                response = self._http.request(method, url, json=body, params=params, auth=self._auth,
                                              timeout=self.settings.request_timeout,
                                              headers={"Accept": "application/json"})
            except (requests.ConnectionError, requests.Timeout) as error:
                raise TransientError(self.redact(f"{type(error).__name__}: {error}")) from None
            if response.status_code == 429 or response.status_code >= 500:
                raise TransientError(_describe(response), _retry_after(response))
            if response.status_code >= 400:
                raise self._refusal(response, method, path)
            return response.json() if response.content else {}

        try:
            return with_retries(once, self.settings, f"UpCloud {method} {path}")
        except ProviderError as error:
            error.message = self.redact(error.message)
            error.args = (error.message,)
            raise

    def _refusal(self, response: requests.Response, method: str, path: str) -> ProviderError:
        what = f"UpCloud {method} {path}: {_describe(response)}"
        code = _error_code(response)
        if response.status_code in (401, 403):
            return CredentialsError(f"UpCloud refused the credentials ({what})")
        if response.status_code == 402 or (response.status_code == 409 and any(w in code for w in _QUOTA_WORDS)):
            return QuotaError(f"UpCloud account limit reached ({what})")
        return ProviderError(what)


def _state(server: dict[str, Any]) -> ServerState:
    addresses = server.get("ip_addresses", {}).get("ip_address", [])

    def first(access: str) -> str | None:
        return next((entry["address"] for entry in addresses
                     if entry.get("access") == access and entry.get("family", "IPv4") == "IPv4"
                     and entry.get("address")), None)

    return ServerState(
        name=server.get("hostname", server["uuid"]), provider="upcloud", id=server["uuid"],
        state=server.get("state", "unknown"), running=server.get("state") == "started",
        public_address=first("public"), private_address=first("utility") or first("private"),
        details={"zone": server.get("zone"), "plan": server.get("plan")})


def _public_key(server: UpcloudServer) -> str:
    path = f"{server.ssh_key}.pub"
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except OSError as error:
        raise ProviderError(f"server '{server.hostname}': cannot read the public key {path}: {error.strerror}") \
            from None


def _error_code(response: requests.Response) -> str:
    try:
        return str(response.json()["error"]["error_code"])
    except (ValueError, KeyError, TypeError):
        return ""


def _describe(response: requests.Response) -> str:
    """'HTTP 409 CODE: message' from UpCloud's error body, or the status alone."""
    text = f"HTTP {response.status_code}"
    try:
        error = response.json()["error"]
        return f"{text} {error['error_code']}: {error['error_message']}"
    except (ValueError, KeyError, TypeError):
        return f"{text} {response.reason or ''}".rstrip()


def _retry_after(response: requests.Response) -> float | None:
    value = response.headers.get("Retry-After", "")
    try:
        return max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date, or nothing: back off as usual
