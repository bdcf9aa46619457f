"""Local servers: test hosts on this machine (own mount, UTS and PID namespaces, overlay root, sshd on its own
127.0.0.N), one ``runner.testenv`` env per infra under the provider's state directory. Needs root.

A server's state is its host directory in the env: running while its init runs, stopped when only the
directory is left (after ``keep_storage`` deletion, or a reboot of the machine). Starting a stopped local
server starts it from a fresh root layer, as the env does.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from runner.infra.provider_settings import LocalProviderSettings
from runner.infra.servers import AnyServer
from runner.providers.base import CapturedImage, Provider, ProviderError, ServerState
from runner.providers.golden import ImageCatalog, is_golden, parse_ref
from runner.providers.local_identity import BuildIdentity, running_services
from runner.providers.local_layers import capture_layer
from runner.testenv import TestEnv, TestHost
from runner.testenv.host import HostDir
from runner.testenv.inventory import access_vars

DEFAULT_ENV = "local"


class LocalProvider(Provider):
    name = "local"
    settings: LocalProviderSettings

    def __init__(self, settings: LocalProviderSettings, env_name: str = DEFAULT_ENV):
        super().__init__(settings)
        self.env = TestEnv(name=settings.env or env_name, count=1, base_address=settings.base_address,
                           state_root=Path(settings.state_dir))

    def servers(self) -> list[ServerState]:
        running = {host.name: host for host in self.env.hosts()}
        found = [self._running(host) for host in running.values()]
        if self.env.state_dir.is_dir():
            for path in sorted(self.env.state_dir.iterdir()):
                if path.name not in running and HostDir(path).upper.is_dir():
                    found.append(ServerState(path.name, self.name, str(path), "stopped", running=False))
        return found

    @property
    def layers_dir(self) -> Path:
        """Where captured golden image roots are kept, by content digest."""
        return Path(self.settings.state_dir) / "images"

    def create(self, server: AnyServer) -> ServerState:
        # Without an address the env picks the first free one under its lock, so servers created at the same
        # time (one thread or worker each) never pick the same.
        lowers = [self._golden_layer(image)] if is_golden(image := getattr(server, "image", None)) else []
        return self._running(self.env.start_host(server.hostname, getattr(server, "address", None), lowers))

    def capture_image(self, state: ServerState, name: str) -> CapturedImage:
        # Stopped first: overlayfs does not expect its upper layer read (or changed) under a mounted overlay, and
        # a stopped server's daemons have written everything out.
        pid = state.details.get("pid")
        running = running_services(pid) if isinstance(pid, int) else []
        self.env.stop_host(state.name, keep_state=True)
        host_dir = HostDir(self.env.state_dir / state.name)
        if host_dir.lowers():
            raise ProviderError(f"server '{state.name}' runs from a golden image itself: capture one built on the "
                                "machine's root")
        identity = BuildIdentity(state.name, state.private_address, running) if state.private_address else None
        layer = capture_layer(host_dir.upper, self.layers_dir, identity=identity)
        return CapturedImage(layer.digest, str(layer.path), layer.digest, layer.size)

    def delete_image(self, image_id: str) -> None:
        layer = self.layers_dir / image_id
        if layer.is_dir():
            shutil.rmtree(layer)

    def images_in_use(self) -> set[str]:
        # Every env under the state directory (one per infra) may have servers started from a layer.
        return {layer.name for record in Path(self.settings.state_dir).glob("*/*/lowers.json")
                for layer in HostDir(record.parent).lowers() if layer.parent == self.layers_dir}

    def _golden_layer(self, image: str) -> Path:
        entry = ImageCatalog(self.settings.images_dir).find(parse_ref(image))
        if entry.provider != self.name:
            raise ProviderError(f"golden image {entry.ref} is an image of the {entry.provider} provider, not a "
                                "local one")
        layer = self.layers_dir / entry.image_id
        if not layer.is_dir():
            raise ProviderError(f"golden image {entry.ref}: its root {layer} is missing (deleted by hand?): build "
                                "it again")
        return layer

    def start(self, state: ServerState) -> ServerState:
        return self._running(self.env.start_host(state.name))

    def delete(self, state: ServerState, keep_storage: bool = False) -> None:
        self.env.stop_host(state.name, keep_state=keep_storage)

    def login_vars(self, server: AnyServer, state: ServerState) -> dict[str, Any]:
        return {**access_vars(self.env.private_key, self.env.known_hosts), **super().login_vars(server, state)}

    def _running(self, host: TestHost) -> ServerState:
        return ServerState(host.name, self.name, str(host.state_dir), "running", running=True,
                           private_address=host.address, details={"env": self.env.name, "pid": host.pid})
