"""The benchmark's hosts: local test hosts from runner.testenv, written out as each runner's inventory.

Every runner gets the same hosts, keys and known_hosts: a YAML inventory (the test env's own format) for
ansible-playbook and provisioning-playbook, and a Python inventory for pyinfra.
"""

from __future__ import annotations

import argparse
import asyncio
import shlex
from dataclasses import dataclass
from pathlib import Path

from runner.connection import ConnectionSettings, HostSession
from runner.module_index import ModuleIndex
from runner.testenv import TestEnv, TestEnvError
from runner.testenv.addresses import parse_base
from runner.testenv.inventory import GROUP, INTERPRETER, write_inventory

ENV_NAME = "bench"
# Debian's stock ~/.bashrc for root: does nothing in the non-interactive shell an SSH command runs in
STOCK_BASHRC = "/usr/share/base-files/dot.bashrc"
# 127.0.0.100 upward: apart from the default env's hosts (from .2) and the test suite's (from .20)
BASE_ADDRESS = 100


@dataclass(frozen=True)
class HostSet:
    """Named hosts on loopback addresses, with the client key and known_hosts that reach them as root."""

    hosts: list[tuple[str, str]]  # (name, address)
    private_key: Path
    known_hosts: Path

    @classmethod
    def start(cls, count: int, name: str = ENV_NAME, base_address: int | str = BASE_ADDRESS) -> tuple[TestEnv, HostSet]:
        env = TestEnv(name=name, count=count, base_address=base_address)
        started = env.up()
        hosts = cls([(host.name, host.address) for host in started], env.private_key, env.known_hosts)
        hosts.use_stock_shell_startup()
        return env, hosts

    def __len__(self) -> int:
        return len(self.hosts)

    def first(self, count: int) -> HostSet:
        """The first ``count`` hosts, for the smaller of the two runs the marginal cost compares."""
        return HostSet(self.hosts[:count], self.private_key, self.known_hosts)

    def write_yaml_inventory(self, path: Path) -> Path:
        write_inventory(path, self.hosts, self.private_key, self.known_hosts)
        return path

    def write_pyinfra_inventory(self, path: Path) -> Path:
        """A pyinfra inventory: group ``testhosts`` with the same names, addresses, key and known_hosts."""
        entries = [
            (name, {"ssh_hostname": address, "ssh_user": "root", "ssh_key": str(self.private_key),
                    "ssh_known_hosts_file": str(self.known_hosts), "ssh_strict_host_key_checking": "yes"})
            for name, address in self.hosts
        ]
        path.write_text("# Written by bench/run.py: the benchmark's local test hosts.\n"
                        f"{GROUP} = {entries!r}\n")
        return path

    def use_stock_shell_startup(self) -> None:
        """Give root on each host Debian's stock ~/.bashrc.

        A test host's root starts as a copy of this machine's, whose ~/.bashrc may set up developer tools (pyenv
        runs ``pyenv rehash`` under a shared lock): sshd runs every command through that shell, so runners that
        open a channel per command would be timed on it, as they never are on a real server. The write lands
        in the host's own overlay layer; this machine's file is untouched.
        """
        self.run_everywhere(f"if [ -f {STOCK_BASHRC} ]; then cp {STOCK_BASHRC} /root/.bashrc; "
                            "else : > /root/.bashrc; fi")

    def remove_paths(self, paths: list[str]) -> None:
        """``rm -rf`` the paths on every host (between timed runs; not timed)."""
        self.run_everywhere("rm -rf " + " ".join(shlex.quote(path) for path in paths))

    def run_everywhere(self, command: str) -> None:
        """Run a shell command on every host at once, over a plain exec channel; a failure raises."""
        index = ModuleIndex()

        async def run_on(name: str, address: str) -> None:
            settings = ConnectionSettings(name=name, address=address, user="root",
                                          private_key_file=str(self.private_key),
                                          known_hosts_file=str(self.known_hosts), interpreter=INTERPRETER)
            session = HostSession(settings, index)
            try:
                result = await session.raw(command)
            finally:
                await session.close()
            if result.rc != 0:
                raise RuntimeError(f"{name}: '{command}' failed: {result.stderr.decode(errors='replace')}")

        async def run_on_all() -> None:
            await asyncio.gather(*(run_on(name, address) for name, address in self.hosts))

        asyncio.run(run_on_all())


def add_env_arguments(parser: argparse.ArgumentParser, name: str = ENV_NAME, base: int | str = BASE_ADDRESS) -> None:
    """``--env-name`` and ``--base-address``: hosts apart from another benchmark's on the same machine."""
    parser.add_argument("--env-name", default=name, help=f"the test env's name (default {name})")
    parser.add_argument("--base-address", type=_base_address, default=base, metavar="N|ADDRESS",
                        help=f"the first host's address: 127.0.0.N, or a loopback address such as 127.0.1.1 "
                             f"(default {base})")


def _base_address(text: str) -> int | str:
    try:
        return parse_base(text)
    except TestEnvError as error:
        raise argparse.ArgumentTypeError(error.message) from None
