"""A named set of local test hosts: bring them up (in parallel), list them, tear them down.

State lives in ``<state_root>/<name>/``: the client key pair, ``known_hosts``, ``inventory.yml`` and one directory
per host. ``up`` reuses hosts that still run and serve SSH, restarts the others from a fresh upper layer, and
stops hosts beyond the requested count; ``down`` is safe to repeat.
"""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from types import TracebackType

from runner.testenv.addresses import UNUSED_LOOPBACK, first_address, host_addresses, search_range
from runner.testenv.cgroups import host_cgroup
from runner.testenv.errors import TestEnvError
from runner.testenv.host import PLAIN, SYSTEMD, HostDir, TestHost, abort, launch, running_host, stop, wait_until_serving
from runner.testenv.inventory import write_inventory
from runner.testenv.keys import generate_keys, read_public_key, write_known_hosts
from runner.testenv.layer import HOST_KEY, ensure_dir, prepare_upper
from runner.testenv.machine import accepts_tcp, require_machine, require_root, unmount_all_under

DEFAULT_STATE_ROOT = Path("/var/lib/provisioning/testenv")
READY_TIMEOUT = 60.0
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
_HOST_RECORD = "host.json"


class TestEnv:
    """Local test hosts on loopback addresses (runner.testenv.addresses), each with its own root, hostname, PID
    space and sshd. Needs root. ``base_address``: N for 127.0.0.N up, or an address such as 127.0.1.1.

    ``systemd``: each host boots the machine's systemd as its PID 1 (in a cgroup of its own), as a Debian
    machine or CI container does, and systemd starts its sshd; otherwise a plain init starts sshd and nothing
    else. Hosts that run with the other init are restarted by ``up``."""

    __test__ = False  # not a pytest test class, despite its name

    def __init__(self, name: str = "default", count: int = 3, base_address: int | str = 2,
                 state_root: Path = DEFAULT_STATE_ROOT, prefix: str = "host", systemd: bool = False):
        if not _NAME.match(name) or not _NAME.match(prefix):
            raise TestEnvError(f"env name {name!r} and host prefix {prefix!r} must be letters, digits, '_.-'")
        self.addresses = host_addresses(base_address, count)
        self.name = name
        self.count = count
        self.base_address = base_address
        self.state_root = Path(state_root)
        self.prefix = prefix
        self.init = SYSTEMD if systemd else PLAIN
        self.state_dir = self.state_root / name
        self.inventory_path = self.state_dir / "inventory.yml"
        self.private_key = self.state_dir / "id_ed25519"
        self.known_hosts = self.state_dir / "known_hosts"
        # Launchers this process started, waited for on down() so none is left a zombie.
        self._launchers: dict[str, subprocess.Popen] = {}

    def wanted(self) -> list[tuple[str, str]]:
        """(name, address) of each host ``up`` brings: host1 on the base address, host2 on the next, ..."""
        return [(f"{self.prefix}{index + 1}", address) for index, address in enumerate(self.addresses)]

    def _host_dirs(self) -> list[HostDir]:
        if not self.state_dir.is_dir():
            return []
        return sorted((HostDir(path.parent) for path in self.state_dir.glob(f"*/{_HOST_RECORD}")),
                      key=lambda host_dir: host_dir.path.name)

    def hosts(self) -> list[TestHost]:
        """The env's hosts whose init still runs, in address order."""
        found = [host for host in map(running_host, self._host_dirs()) if host is not None]
        return sorted(found, key=lambda host: tuple(int(part) for part in host.address.split(".")))

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """One up or down at a time per env, across processes."""
        self.state_dir.mkdir(parents=True, exist_ok=True)
        with open(self.state_dir / ".lock", "w") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            yield

    def up(self) -> list[TestHost]:
        require_machine()
        with self._locked():
            wanted = self.wanted()
            running = {host.name: host for host in self.hosts()}
            keep = {name for name, address in wanted
                    if name in running and running[name].address == address and running[name].init == self.init
                    and accepts_tcp(address)}
            host_dirs = self._host_dirs()
            stop([host_dir for host_dir in host_dirs if host_dir.path.name not in keep])
            for host_dir in host_dirs:
                if host_dir.path.name not in {name for name, _ in wanted}:
                    self._remove(host_dir.path)  # a host beyond the count: the env shrank
            self._start([(name, address) for name, address in wanted if name not in keep], wanted)
            return self._write_access_files()

    def start_host(self, name: str, address: str | None = None, lowers: Sequence[Path] | None = None) -> TestHost:
        """Start one host called ``name`` on ``address`` (default: the first free address from the base up)
        beside the env's others, for callers that manage hosts one by one (the local provider). A host that
        already runs there and serves SSH is kept as it is; one elsewhere is restarted fresh. ``up`` and ``down``
        treat these hosts like any other.

        Only the launch holds the env's lock: waiting for the host's sshd does not, so several hosts of one env
        start at the same time (from threads or processes); the address of a host still starting is claimed in
        its directory until it serves.

        ``lowers`` are extra lower layers of its root, topmost first (a golden image's captured root), between its
        upper layer and the machine's /; None keeps those it had (a stopped host starts again on the same)."""
        if not _NAME.match(name):
            raise TestEnvError(f"host name {name!r} must be letters, digits, '_.-'")
        require_machine()
        with self._locked():
            running = {host.name: host for host in self.hosts()}
            current = running.pop(name, None)
            if (current is not None and address in (None, current.address) and current.init == self.init
                    and accepts_tcp(current.address)):
                return current
            stop([HostDir(self.state_dir / name)])
            address = address or self._free_address()
            peers = [(host.name, host.address) for host in running.values()] + [(name, address)]
            launched = self._launch([(name, address)], peers, {name: lowers} if lowers is not None else {})
            HostDir(self.state_dir / name).claim.write_text(address)
        try:
            wait_until_serving(launched, READY_TIMEOUT)
        except BaseException:
            abort(launched)  # nothing half-started is left behind
            self._reap_launchers()
            raise
        finally:
            HostDir(self.state_dir / name).claim.unlink(missing_ok=True)
        with self._locked():
            self._write_access_files()
            return next(host for host in self.hosts() if host.name == name)

    def boot_host(self, name: str) -> TestHost:
        """Start again, on the disk it had, the host called ``name`` whose init has ended: what powering a machine
        back on is to it after a reboot from inside (reboot(2) in a host ends its PID namespace). Its files, host
        key and address are kept; every process, /tmp and /run are new. A host still running is returned as it is.
        """
        if not _NAME.match(name):
            raise TestEnvError(f"host name {name!r} must be letters, digits, '_.-'")
        require_machine()
        host_dir = HostDir(self.state_dir / name)
        with self._locked():
            current = running_host(host_dir)
            if current is not None:
                return current
            try:
                address = json.loads(host_dir.record.read_text())["address"]
            except (OSError, ValueError, KeyError):
                raise TestEnvError(f"host {name} of env {self.name} never ran: nothing to boot again") from None
            self._reap_launchers()
            host_dir.reset(keep_disk=True)
            process = launch(host_dir, name, address, self.state_root, self._cgroup(name))
            self._launchers[name] = process
            launched = [(host_dir, name, address, process)]
        try:
            wait_until_serving(launched, READY_TIMEOUT)
        except BaseException:
            abort(launched)
            self._reap_launchers()
            raise
        with self._locked():
            self._write_access_files()
            return next(host for host in self.hosts() if host.name == name)

    def _free_address(self) -> str:
        """The first address from the base to the end of its /24 that no host of the env has or claims and nothing
        listens on for SSH (called with the env locked)."""
        taken = {host.address for host in self.hosts()}
        taken |= {claim.read_text().strip() for claim in self.state_dir.glob("*/starting")}
        candidates = search_range(self.base_address)
        for address in candidates:
            if address not in taken and not accepts_tcp(address):
                return address
        raise TestEnvError(f"no free address from {first_address(self.base_address)} to {candidates[-1]} for a "
                           "test host: start from another base address ('base_address' of a local provider)")

    def stop_host(self, name: str, keep_state: bool = False) -> bool:
        """Stop the host called ``name`` (every process in it, then its mounts) and, unless ``keep_state``,
        remove its state; False when the env has no such host."""
        if not _NAME.match(name):
            raise TestEnvError(f"host name {name!r} must be letters, digits, '_.-'")
        host_dir = HostDir(self.state_dir / name)
        if not host_dir.path.is_dir():
            return False
        require_root()
        with self._locked():
            stop([host_dir])
            launcher = self._launchers.pop(name, None)
            if launcher is not None:
                launcher.wait()  # its child, the host's init, is gone: it ends at once; reap it
            if not keep_state:
                self._remove(host_dir.path)
            self._write_access_files()
        return True

    def _write_access_files(self) -> list[TestHost]:
        """known_hosts and inventory.yml for the hosts that run now; returns them."""
        hosts = self.hosts()
        write_known_hosts(self.known_hosts, [(host.address, read_public_key(HostDir(host.state_dir).host_key))
                                             for host in hosts])
        write_inventory(self.inventory_path, [(host.name, host.address) for host in hosts],
                        self.private_key, self.known_hosts)
        return hosts

    def _start(self, missing: list[tuple[str, str]], wanted: list[tuple[str, str]]) -> None:
        """Start ``missing`` hosts from fresh layers, all at once, and wait until each one serves SSH."""
        launched = self._launch(missing, wanted)
        try:
            wait_until_serving(launched, READY_TIMEOUT)
        except BaseException:
            abort(launched)  # nothing half-started is left behind
            self._reap_launchers()
            raise

    def _launch(self, missing: list[tuple[str, str]], wanted: list[tuple[str, str]],
                lowers: Mapping[str, Sequence[Path]] | None = None
                ) -> list[tuple[HostDir, str, str, subprocess.Popen]]:
        """Launch ``missing`` hosts from fresh layers (their sshd still starting when this returns); ``lowers``
        gives a host new extra lower layers (else it keeps the ones it had)."""
        if missing and accepts_tcp(UNUSED_LOOPBACK):
            raise TestEnvError(
                "something listens on port 22 of every address (usually the machine's own sshd, with no "
                "ListenAddress): local test hosts need 127.0.0.N:22 for themselves. Give the machine's sshd a "
                "ListenAddress (its public address, or 127.0.0.1) and restart it, then try again")
        for _, address in missing:
            if accepts_tcp(address):
                raise TestEnvError(f"{address}:22 is already in use (another env runs there): choose other "
                                   "addresses with --base")
        host_dirs = {name: HostDir(self.state_dir / name) for name, _ in missing}
        for name, host_dir in host_dirs.items():
            host_dir.reset()
            if lowers and name in lowers:
                host_dir.lowers_record.write_text(json.dumps([str(path) for path in lowers[name]]))
            ensure_dir(host_dir.upper, str(PurePosixPath(HOST_KEY).parent))
        generate_keys([(self.private_key, f"provisioning-testenv-{self.name}")]
                      + [(host_dirs[name].host_key, f"root@{name}") for name, _ in missing])
        client_key = read_public_key(self.private_key)
        launched: list[tuple[HostDir, str, str, subprocess.Popen]] = []
        try:
            for name, address in missing:
                host_dir = host_dirs[name]
                prepare_upper(host_dir.upper, name, address, wanted, client_key, host_dir.lowers())
                process = launch(host_dir, name, address, self.state_root, self._cgroup(name))
                self._launchers[name] = process
                launched.append((host_dir, name, address, process))
        except BaseException:
            abort(launched)
            self._reap_launchers()
            raise
        return launched

    def _cgroup(self, name: str) -> Path | None:
        """The cgroup the host ``name`` boots systemd in; None for a plain init."""
        return host_cgroup(self.name, name) if self.init == SYSTEMD else None

    def _reap_launchers(self) -> None:
        for name, process in list(self._launchers.items()):
            if process.poll() is not None:
                del self._launchers[name]

    def down(self, keep_state: bool = False) -> None:
        if not self.state_dir.is_dir():
            return
        require_root()
        with self._locked():
            stop(self._host_dirs())
            self._reap_launchers()
            if not keep_state:
                self._remove(self.state_dir)

    @staticmethod
    def _remove(directory: Path) -> None:
        unmount_all_under(directory)
        shutil.rmtree(directory)

    def __enter__(self) -> TestEnv:
        self.up()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.down()
