"""``provisioning-config``: show the configuration in use (like ansible-config: dump, list, view)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from runner.callbacks.log_file import print_error
from runner.cli.common import Group, report_errors
from runner.config import SETTINGS, Config, load_config
from runner.config.locate import CONFIG_ENV, candidate_paths
from runner.errors import UserError


def config_file_option(command: Any) -> Any:
    """``-c/--config FILE``, before the subcommand or after it as ansible-config takes it."""
    return click.option("-c", "--config", "config_file", type=click.Path(path_type=Path),
                        help=f"Use this configuration file instead of searching (like {CONFIG_ENV}).")(command)


def _with_config_file(env: dict[str, str], config_file: Path | None) -> dict[str, str]:
    if config_file is None:
        return env
    if not os.access(config_file, os.R_OK) or not config_file.is_file():
        raise UserError(f"The provided configuration file is missing or not accessible: {config_file.absolute()}")
    return {**env, CONFIG_ENV: str(config_file)}


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@config_file_option
@click.pass_context
def main(context: click.Context, config_file: Path | None) -> None:
    """Show provisioning's configuration: every setting, its value and where the value came from."""
    try:
        context.obj = _with_config_file(dict(os.environ), config_file)
    except UserError as exc:  # report_errors would end the command here even on success: reported as it does
        print_error(exc.render())
        sys.exit(int(exc.exit_code))


@main.command()
@click.option("--only-changed", is_flag=True, help="Only the settings that differ from their default.")
@config_file_option
@click.pass_obj
@report_errors
def dump(env: dict[str, str], only_changed: bool, config_file: Path | None) -> None:
    """Every setting as `name(origin) = value`."""
    config = _load(_with_config_file(env, config_file))
    changed = config.changed()
    for name, value, origin in config.items():
        if not only_changed or name in changed:
            click.echo(f"{name}({origin}) = {format_value(value)}")


@main.command(name="list")
@report_errors
def list_settings() -> None:
    """Every setting with its description, type, default, INI keys and environment variables."""
    for setting in SETTINGS:
        click.echo(f"{setting.name}:")
        click.echo(f"  description: {setting.description}")
        click.echo(f"  type: {setting.type}")
        click.echo(f"  default: {format_value(setting.default)}")
        if setting.choices:
            click.echo(f"  choices: {', '.join(setting.choices)}")
        click.echo(f"  ini: {', '.join(f'[{section}] {key}' for section, key in setting.ini_keys)}")
        click.echo(f"  env: {', '.join(setting.env_names)}")
        for gap in setting.unsupported:
            which = ", ".join(format_value(value) for value in gap.values) or "anything but the default"
            click.echo(f"  not supported ({which}, {'an error' if gap.fatal else 'a warning'}): {gap.reason}")


@main.command()
@config_file_option
@click.pass_obj
@report_errors
def view(env: dict[str, str], config_file: Path | None) -> None:
    """The configuration file in use, as written."""
    config = _load(_with_config_file(env, config_file))
    if config.path is None:
        searched = ", ".join(str(path) for path in candidate_paths(env, Path.cwd(), env.get("HOME", "~")))
        raise UserError(f"no configuration file found (searched {searched})")
    click.echo(f"# {config.path}")
    click.echo(config.path.read_text(encoding="utf-8"), nl=False)


@main.command(name="persist-status")
@report_errors
def persist_status() -> None:
    """This user's connection keeper (its pid, idle time limit and the connections it holds) and warm
    controller."""
    from runner.cli.keeper import keeper_lines

    for line in keeper_lines():
        click.echo(line)


@main.command(name="persist-stop")
@report_errors
def persist_stop() -> None:
    """End this user's connection keeper (its connections close and their agents on the hosts exit) and this
    install's warm controller (the next run starts cold)."""
    from runner.connection.keeper.place import KeeperPlaceError
    from runner.connection.keeper.start import stop_keeper
    from runner.warm.control import stop_warm

    try:
        stopped = stop_keeper()
        warm_stopped = stop_warm()
    except KeeperPlaceError as exc:
        raise UserError(str(exc)) from None
    click.echo("connection keeper stopped" if stopped else "no connection keeper running")
    click.echo("warm controller stopped" if warm_stopped else "no warm controller running")


def _load(env: dict[str, str]) -> Config:
    config = load_config(env=env)
    for warning in config.warnings:
        sys.stderr.write(f"[WARNING]: {warning}\n")
    return config


def format_value(value: Any) -> str:
    """Lists as Python lists (as ansible-config shows them), everything else as text."""
    return repr(value) if isinstance(value, list) else str(value)
