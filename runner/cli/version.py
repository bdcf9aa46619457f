"""``--version`` of every Ansible-like command, laid out as Ansible's: the version, the configuration file in use,
the module search path, where the package and the executable are, and the Python and library versions."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from runner.errors import UserError


def version_text(program: str) -> str:
    import jinja2
    import ruamel.yaml
    import yaml

    import runner
    from runner.config import load_config

    config = load_config()
    library = [str(path) for path in config.library]
    return "\n".join([
        f"{program} [provisioning {runner.__version__}]",
        f"  config file = {config.path}",
        f"  configured module search path = {library}",
        f"  provisioning python module location = {Path(runner.__file__).parent}",
        f"  provisioning collection location = {':'.join(str(path) for path in config.collections_path)}",
        f"  executable location = {os.path.abspath(sys.argv[0])}",
        f"  python version = {sys.version.replace(os.linesep, ' ')} ({sys.executable})",
        f"  jinja version = {jinja2.__version__}",
        f"  pyyaml version = {yaml.__version__} ({_libyaml()})",
        f"  ruamel.yaml version = {ruamel.yaml.__version__}",
    ])


def _libyaml() -> str:
    """As Ansible says it: the playbooks are read with libyaml's parser when PyYAML has it."""
    import yaml

    if getattr(yaml, "__with_libyaml__", False):
        from yaml import _yaml

        return f"with libyaml v{_yaml.get_version_string()}"
    return "without libyaml"


def _print_version(context: click.Context, _: click.Parameter, given: bool) -> None:
    if not given or context.resilient_parsing:
        return
    program = context.find_root().info_name or os.path.basename(sys.argv[0])
    try:
        click.echo(version_text(program))
    except UserError as exc:  # a broken configuration file: the same message as any command gives
        from runner.callbacks.log_file import print_error

        print_error(exc.render())
        context.exit(int(exc.exit_code))
    context.exit(0)


def version_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
                        help="Show the program's version, configuration file and library paths, and exit.")(function)
