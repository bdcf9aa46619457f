"""The one small interface every provider has, and the errors they raise.

A provider knows servers by name (idempotence is by name): it lists them, finds one, creates one from an
infra server's settings, starts a stopped one, deletes one, and says how to log in to one. Waiting, check
mode and the shape of results are the same for all of them and live in ``runner.providers.lifecycle``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from runner.errors import UserError
from runner.infra.provider_settings import ProviderSettings
from runner.infra.servers import AnyServer

REDACTED = "********"


class ProviderError(UserError):
    """A provider refused or failed a request; the message never holds a secret."""

    # Set when the server was created before the error (it never came up): a rollback deletes it.
    server_created: bool = False


class CredentialsError(ProviderError):
    """The provider does not accept the credentials (or there are none)."""


class QuotaError(ProviderError):
    """The account may not have more: a quota, a limit or too little credit."""


class TransientError(Exception):
    """A failure worth trying again (throttling, a 5xx, a dropped connection); ``retry_after`` in seconds."""

    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass(frozen=True)
class ServerState:
    """A server as its provider sees it now."""

    name: str
    provider: str
    id: str
    state: str  # the provider's own word: running, pending, started, maintenance, stopped ...
    running: bool
    public_address: str | None = None
    private_address: str | None = None
    details: dict[str, Any] = field(default_factory=dict)  # provider-specific: zone, plan, image ...

    @property
    def address(self) -> str | None:
        """The address to log in to: the public one, else the private one."""
        return self.public_address or self.private_address

    @property
    def addresses(self) -> list[str]:
        return [address for address in (self.public_address, self.private_address) if address]

    def as_result(self) -> dict[str, Any]:
        return {"name": self.name, "provider": self.provider, "id": self.id, "state": self.state,
                "address": self.address, "public_address": self.public_address,
                "private_address": self.private_address, **self.details}


@dataclass(frozen=True)
class CapturedImage:
    """An image a provider captured from a server: its id there, where it is, its SHA-256 and size."""

    image_id: str
    location: str
    checksum: str
    size_bytes: int


class Provider(ABC):
    """One provider account (or local state directory) and the servers in it."""

    name: ClassVar[str]

    def __init__(self, settings: ProviderSettings):
        self.settings = settings

    @abstractmethod
    def servers(self) -> list[ServerState]:
        """Every server this provider manages here (deleted ones excluded)."""

    def find(self, name: str) -> ServerState | None:
        """The server called ``name``, or None when it does not exist."""
        return next((server for server in self.servers() if server.name == name), None)

    def exists(self, name: str) -> bool:
        return self.find(name) is not None

    @abstractmethod
    def create(self, server: AnyServer) -> ServerState:
        """Ask for a new server; it may still be starting when this returns."""

    @abstractmethod
    def start(self, state: ServerState) -> ServerState:
        """Start a stopped server."""

    @abstractmethod
    def delete(self, state: ServerState, keep_storage: bool = False) -> None:
        """Delete a server (stopping it first where the provider needs that); its disks too unless
        ``keep_storage``."""

    def capture_image(self, state: ServerState, name: str) -> CapturedImage:
        """Capture the server as an image called ``name`` (the server may be stopped to do so)."""
        raise ProviderError(f"the {self.name} provider cannot capture golden images")

    def delete_image(self, image_id: str) -> None:
        """Delete a captured image that no record names any more."""
        raise ProviderError(f"the {self.name} provider cannot delete golden images")

    def images_in_use(self) -> set[str]:
        """Ids of captured images that servers of this provider still run from (never pruned)."""
        return set()

    def login_vars(self, server: AnyServer, state: ServerState) -> dict[str, Any]:
        """Inventory variables to log in to the server: address, user, port, key."""
        variables: dict[str, Any] = {}
        if state.address:
            variables["ansible_host"] = state.address
        if server.user:
            variables["ansible_user"] = server.user
        if server.ssh_port != 22:
            variables["ansible_port"] = server.ssh_port
        key = getattr(server, "ssh_key", None)
        if key:
            variables["ansible_ssh_private_key_file"] = key
        return variables

    def secrets(self) -> list[str]:
        """Values that must never appear in any output."""
        return [value for name in self.settings.SECRETS if (value := getattr(self.settings, name, None))]

    def redact(self, text: str) -> str:
        for secret in self.secrets():
            if len(secret) >= 3:
                text = text.replace(secret, REDACTED)
        return text
