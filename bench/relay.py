"""What the connection keeper's relay adds to one exchange with an agent, against the direct channel.

    python3 bench/relay.py [--exchanges 300] [--env-name bench] [--base-address 100] [--keep-env]

On one local test host, one controller process sends EXCHANGES ``ping`` module runs one after the other to the
same agent, first over its own SSH connection, then through a keeper of its own (a runtime directory of the
benchmark's); it prints the median and 90th percentile round trip and the CPU time per exchange of the
controller and of the keeper. Sequential round trips on a busy machine include waiting for a CPU: the medians
of the two ways, taken back to back, compare better than either alone.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hosts import HostSet, add_env_arguments

from runner.connection import ConnectionSettings, HostSession
from runner.connection.keeper import KeeperChoice, use_keeper
from runner.connection.keeper.start import keeper_status, stop_keeper
from runner.module_index import ModuleIndex
from runner.testenv.inventory import INTERPRETER


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` (from /proc/PID/stat, in clock ticks)."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _exchanges(settings: ConnectionSettings, count: int, keeper_pid: int | None) -> dict[str, float]:
    session = HostSession(settings, ModuleIndex())
    try:
        await session.run_module("ping", {})  # connected, the agent started and the module loaded: not timed
        times = []
        own_cpu = time.process_time()
        keeper_cpu = _cpu_seconds(keeper_pid) if keeper_pid else 0.0
        for _ in range(count):
            started = time.perf_counter()
            await session.run_module("ping", {})
            times.append(time.perf_counter() - started)
        own_cpu = time.process_time() - own_cpu
        keeper_cpu = (_cpu_seconds(keeper_pid) - keeper_cpu) if keeper_pid else 0.0
    finally:
        await session.close()
    times.sort()
    return {"median_ms": statistics.median(times) * 1000, "p90_ms": times[int(len(times) * 0.9)] * 1000,
            "controller_cpu_ms": own_cpu / count * 1000, "keeper_cpu_ms": keeper_cpu / count * 1000}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--exchanges", type=int, default=300, help="timed exchanges each way (default 300)")
    parser.add_argument("--keep-env", action="store_true", help="leave the test host running afterwards")
    add_env_arguments(parser)
    arguments = parser.parse_args(argv)
    env, hosts = HostSet.start(1, arguments.env_name, arguments.base_address)
    name, address = hosts.hosts[0]
    settings = ConnectionSettings(name=name, address=address, user="root", private_key_file=str(hosts.private_key),
                                  known_hosts_file=str(hosts.known_hosts), interpreter=INTERPRETER)
    try:
        with tempfile.TemporaryDirectory(prefix="bench-relay-") as runtime:
            directory = Path(runtime) / "provisioning"
            directory.mkdir(mode=0o700)
            use_keeper(None)
            direct = asyncio.run(_exchanges(settings, arguments.exchanges, None))
            use_keeper(KeeperChoice(directory, 60))
            try:
                asyncio.run(_exchanges(settings, 1, None))  # starts the keeper
                status = keeper_status(directory)
                assert status is not None, "the keeper did not start"
                kept = asyncio.run(_exchanges(settings, arguments.exchanges, int(status["pid"])))
            finally:
                stop_keeper(directory)
    finally:
        if not arguments.keep_env:
            env.down()
    print(f"{time.strftime('%Y-%m-%d %H:%M')}: {arguments.exchanges} ping exchanges with one agent, one at a time")
    for label, found in (("direct", direct), ("through the keeper", kept)):
        print(f"  {label}: round trip median {found['median_ms']:.2f} ms, p90 {found['p90_ms']:.2f} ms; CPU per "
              f"exchange: controller {found['controller_cpu_ms']:.2f} ms, keeper {found['keeper_cpu_ms']:.2f} ms")
    print(f"  the relay adds {kept['median_ms'] - direct['median_ms']:.2f} ms to the median round trip")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
