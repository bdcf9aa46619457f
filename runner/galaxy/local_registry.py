"""A local registry: Docker's distribution (Debian's ``docker-registry``) run with a generated configuration.

This is the seed schema's ``deployment: local`` (``LocalOCIConfig``: data directory, configuration path,
binary, listen address and port) served by distribution, with htpasswd authentication and TLS when asked.
The tests start one per run on a loopback port; a developer can start one the same way to try pushing roles.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from runner.galaxy.errors import GalaxyError
from runner.platform_specs.oci_registry import OCIRegistryConfig

BINARIES = ("registry", "docker-registry")  # upstream's name, Debian's name


@dataclass
class LocalRegistry:
    data_dir: Path
    port: int
    address: str = "127.0.0.1"
    htpasswd: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None
    binary: str | None = None
    config_path: Path | None = None
    log_file: Path | None = None
    _process: subprocess.Popen[bytes] | None = None

    @classmethod
    def from_config(cls, config: OCIRegistryConfig, htpasswd: Path | None = None) -> LocalRegistry:
        """The registry a ``deployment: local`` configuration describes."""
        if config.deployment != "local" or config.local is None:
            raise GalaxyError("only a registry with deployment: local (and its local: section) can be started here")
        local = config.local
        http = local.http_config
        data_dir = Path(os.path.expanduser(local.data_dir))
        storage = local.storage_config
        return cls(data_dir=Path(os.path.expanduser(storage.rootdirectory)) if storage and storage.rootdirectory
                   else data_dir / "data", port=http.listen_port if http else config.port or 5000,
                   address=http.listen_address if http else "127.0.0.1", htpasswd=htpasswd,
                   tls_cert=Path(config.tls_cert_path) if config.tls_enabled and config.tls_cert_path else None,
                   tls_key=Path(config.tls_key_path) if config.tls_enabled and config.tls_key_path else None,
                   binary=local.binary_path, config_path=Path(os.path.expanduser(local.config_path)),
                   log_file=Path(os.path.expanduser(local.log_file)) if local.log_file else None)

    @property
    def registry(self) -> str:
        return f"{self.address}:{self.port}"

    @property
    def storage_dir(self) -> Path:
        return self.data_dir / "storage"

    def config_text(self) -> str:
        lines = ["version: 0.1", "log:", "  level: warn", "storage:", "  filesystem:",
                 f"    rootdirectory: {self.storage_dir}", "  delete:", "    enabled: true",
                 "http:", f"  addr: {self.registry}"]
        if self.tls_cert and self.tls_key:
            lines += ["  tls:", f"    certificate: {self.tls_cert}", f"    key: {self.tls_key}"]
        if self.htpasswd:
            lines += ["auth:", "  htpasswd:", "    realm: provisioning-registry", f"    path: {self.htpasswd}"]
        return "\n".join(lines) + "\n"

    def start(self, timeout: float = 15.0) -> None:
        binary = self.binary or next((found for name in BINARIES if (found := shutil.which(name))), None)
        if binary is None:
            raise GalaxyError("no registry binary found (install Debian's docker-registry)")
        self.data_dir.mkdir(parents=True, exist_ok=True)
        config_path = self.config_path or self.data_dir / "config.yml"
        config_path.parent.mkdir(parents=True, exist_ok=True)
        config_path.write_text(self.config_text(), encoding="utf-8")
        log_path = self.log_file or self.data_dir / "registry.log"
        with open(log_path, "ab") as log:
            self._process = subprocess.Popen([binary, "serve", str(config_path)], stdout=log, stderr=log,
                                             stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise GalaxyError(f"the registry exited at start ({self._process.returncode}); see {log_path}")
            try:
                with socket.create_connection((self.address, self.port), timeout=0.5):
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise GalaxyError(f"the registry did not listen on {self.registry} within {timeout:.0f}s; see {log_path}")

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> LocalRegistry:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
