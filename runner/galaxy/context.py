"""What every galaxy command works with, gathered once from the configuration: the default registry and
namespace, how to reach each registry (TLS, credentials, retries), the content cache and the roles path.

``[galaxy] registry`` and ``namespace`` name the registry of references written without a host; a
``registry_file`` (the seed schema's ``OCIRegistryConfig`` in YAML) gives the same and more: TLS, authentication
files, timeouts. When both are set, the two plain settings win over the file's endpoint and namespace.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from runner.config import Config
from runner.errors import OptionError, ParseError, SourcePosition
from runner.galaxy.cache import ContentCache
from runner.galaxy.client import Connection, RegistryClient
from runner.galaxy.credentials import Credentials, CredentialStore, docker_config_path
from runner.galaxy.errors import GalaxyError
from runner.galaxy.extract import DEFAULT_MAX_SIZE
from runner.galaxy.reference import ReferenceSyntaxError, RoleRef, parse_reference
from runner.galaxy.registry_config import load_registry_file, registry_address
from runner.platform_specs.oci_registry import OCIRegistryConfig

DEFAULT_NAMESPACE = "provisioning-extensions"  # the seed schema's default extensions namespace


@dataclass
class GalaxyContext:
    cache: ContentCache
    credentials: CredentialStore
    roles_path: list[Path]
    registry: str | None = None
    namespace: str = DEFAULT_NAMESPACE
    registry_config: OCIRegistryConfig | None = None
    registry_file: Path | None = None
    insecure: bool = False
    ca_cert: str | None = None
    max_archive_size: int = DEFAULT_MAX_SIZE
    collections_path: list[Path] = field(default_factory=list)
    _clients: dict[str, RegistryClient] = field(default_factory=dict, repr=False)

    @property
    def install_dir(self) -> Path:
        """Where roles are installed: the first roles_path entry, as Ansible does."""
        if not self.roles_path:
            raise OptionError("no roles_path to install into: give -p ROLES_PATH or set roles_path")
        return self.roles_path[0]

    @property
    def collections_install_dir(self) -> Path:
        """Where collections are installed: the first collections_path entry (its ansible_collections/)."""
        if not self.collections_path:
            raise OptionError("no collections_path to install into: give -p COLLECTIONS_PATH or set collections_path")
        return self.collections_path[0]

    def reference(self, text: str, position: SourcePosition | None = None) -> RoleRef:
        """``text`` read as a role reference, completed with the configured registry and namespace."""
        try:
            return parse_reference(text, registry=self.registry, namespace=self.namespace)
        except ReferenceSyntaxError as exc:
            if position is not None:
                raise ParseError(str(exc), position) from None
            raise OptionError(str(exc)) from None

    def client(self, registry: str) -> RegistryClient:
        if registry not in self._clients:
            self._clients[registry] = RegistryClient(self.connection(registry))
        return self._clients[registry]

    def connection(self, registry: str) -> Connection:
        settings = self._config_for(registry)
        credentials = self.credentials.get(registry)
        token = None
        ca_bundle = self.ca_cert
        values: dict[str, object] = {}
        if settings is not None:
            if settings.deployment == "disabled":
                raise GalaxyError(f"the registry {registry} is disabled in {self.registry_file} (deployment: "
                                  "disabled)")
            ca_bundle = ca_bundle or self._path(settings.ca_cert_path)
            if settings.username and settings.password_path:
                credentials = Credentials(settings.username, self._secret(settings.password_path))
            if settings.auth_token_path:
                token = self._secret(settings.auth_token_path)
            if settings.remote is not None:
                remote = settings.remote
                values = {"verify_tls": remote.verify_ssl, "timeout": float(remote.timeout),
                          "retries": remote.retries, "retry_delay": float(remote.retry_delay),
                          "retry_backoff": remote.retry_backoff,
                          "proxies": tuple((scheme, proxy) for scheme, proxy in
                                           (("http", remote.http_proxy), ("https", remote.https_proxy)) if proxy)}
        return Connection(registry=registry, ca_bundle=ca_bundle, insecure=self.insecure, credentials=credentials,
                          token=token, **values)  # type: ignore[arg-type]

    def _config_for(self, registry: str) -> OCIRegistryConfig | None:
        config = self.registry_config
        if config is None:
            return None
        return config if registry in (registry_address(config), config.endpoint) or registry == self.registry \
            else None

    def _path(self, value: str | None) -> str | None:
        if value is None:
            return None
        base = self.registry_file.parent if self.registry_file is not None else Path.cwd()
        return str(base / os.path.expanduser(value))

    def _secret(self, value: str) -> str:
        path = Path(self._path(value) or value)
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise GalaxyError(f"cannot read {path} (named in {self.registry_file}): {exc.strerror}") from None


def galaxy_context(config: Config, *, roles_path: list[Path] | None = None, insecure: bool | None = None,
                   ca_cert: str | None = None, collections_path: list[Path] | None = None) -> GalaxyContext:
    """The context from the configuration; command-line values (not None) win."""
    registry_file = Path(config.galaxy_registry_file) if config.galaxy_registry_file else None
    registry_config = load_registry_file(registry_file) if registry_file is not None else None
    registry = config.galaxy_registry or (registry_address(registry_config) if registry_config is not None else None)
    namespace = config.galaxy_namespace or (registry_config.namespaces.extensions if registry_config is not None
                                            else DEFAULT_NAMESPACE)
    paths = roles_path if roles_path is not None else [Path(entry) for entry in config.roles_path]
    return GalaxyContext(
        cache=ContentCache(Path(config.galaxy_cache_dir)),
        credentials=CredentialStore(Path(config.galaxy_auth_file), docker_config_path()),
        roles_path=paths, registry=registry, namespace=namespace, registry_config=registry_config,
        registry_file=registry_file, insecure=config.galaxy_insecure if insecure is None else insecure,
        ca_cert=ca_cert or config.galaxy_ca_cert, max_archive_size=config.galaxy_max_archive_size,
        collections_path=collections_path if collections_path is not None
        else [Path(entry) for entry in config.collections_path])
