"""``provisioning-testenv up N / down / list / inventory``: local test hosts from the command line."""

from __future__ import annotations

from pathlib import Path

import click

from runner.cli.common import Group, report_errors
from runner.testenv import DEFAULT_STATE_ROOT, TestEnv, TestEnvError, TestHost
from runner.testenv.addresses import parse_base

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}

name_option = click.option("--name", default="default", show_default=True, help="Name of the env.")
state_root_option = click.option("--state-root", type=click.Path(file_okay=False, path_type=Path),
                                 default=DEFAULT_STATE_ROOT, show_default=True,
                                 help="Where envs keep keys, inventories and host layers.")


class BaseAddress(click.ParamType):
    name = "N|ADDRESS"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int | str:
        if isinstance(value, int):
            return value
        try:
            return parse_base(str(value))
        except TestEnvError as error:
            self.fail(error.message, param, ctx)


BASE_ADDRESS = BaseAddress()


def _print_hosts(env_name: str, hosts: list[TestHost]) -> None:
    for host in hosts:
        click.echo(f"{env_name}\t{host.name}\t{host.address}\tpid {host.pid}")


@click.group(cls=Group, context_settings=CONTEXT_SETTINGS)
def cli() -> None:
    """Local test hosts: each in its own mount, UTS and PID namespace with an overlay root and sshd on
    127.0.0.N:22. Needs root."""


@cli.command()
@click.argument("count", type=click.IntRange(min=1))
@name_option
@click.option("--base", "base_address", type=BASE_ADDRESS, default="2", show_default=True,
              help="The first host's address: N for 127.0.0.N, or a loopback address such as 127.0.1.1 (hosts "
                   "then go on past the end of its /24).")
@click.option("--prefix", default="host", show_default=True, help="Host names are PREFIX1 .. PREFIXN.")
@click.option("--systemd", is_flag=True, help="Each host boots systemd as its PID 1 (sshd is one of its units), as "
                                             "a Debian machine does; hosts running the other init are restarted.")
@state_root_option
@report_errors
def up(count: int, name: str, base_address: int | str, prefix: str, systemd: bool, state_root: Path) -> int:
    """Start COUNT hosts (reusing those that already run) and write their inventory."""
    env = TestEnv(name, count=count, base_address=base_address, state_root=state_root, prefix=prefix,
                  systemd=systemd)
    _print_hosts(name, env.up())
    click.echo(f"inventory: {env.inventory_path}")
    return 0


@cli.command()
@name_option
@state_root_option
@click.option("--keep-state", is_flag=True, help="Keep the hosts' layers, keys and inventory on disk.")
@report_errors
def down(name: str, state_root: Path, keep_state: bool) -> int:
    """Stop every host of the env (and every process they started); safe to repeat."""
    TestEnv(name, state_root=state_root).down(keep_state=keep_state)
    return 0


@cli.command(name="list")
@click.option("--name", default=None, help="Only this env (default: every env).")
@state_root_option
@report_errors
def list_hosts(name: str | None, state_root: Path) -> int:
    """Show the running hosts: env, host, address, pid of its init."""
    _print_envs(name, state_root)
    return 0


def _print_envs(name: str | None, state_root: Path) -> None:
    names = [name] if name else sorted(path.name for path in state_root.glob("*") if path.is_dir())
    for env_name in names:
        _print_hosts(env_name, TestEnv(env_name, state_root=state_root).hosts())


@cli.command()
@click.option("--name", default=None, help="Only this env (default: every env).")
@state_root_option
@report_errors
def status(name: str | None, state_root: Path) -> int:
    """The running hosts (as ``list``), then what this user keeps between runs against them: the connection
    keeper and its connections, and the warm controller."""
    from runner.cli.keeper import keeper_lines

    _print_envs(name, state_root)
    for line in keeper_lines():
        click.echo(line)
    return 0


@cli.command()
@name_option
@state_root_option
@report_errors
def inventory(name: str, state_root: Path) -> int:
    """Print the path of the env's inventory."""
    env = TestEnv(name, state_root=state_root)
    if not env.inventory_path.exists():
        raise TestEnvError(f"the env '{name}' is not up: run 'provisioning-testenv up 3 --name {name}' first")
    click.echo(str(env.inventory_path))
    return 0


def main() -> None:
    cli()
