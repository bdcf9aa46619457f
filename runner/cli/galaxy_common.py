"""What the ``provisioning-galaxy`` commands share: their options and the galaxy context from the configuration."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from runner.config import load_config
from runner.errors import OptionError
from runner.galaxy.context import GalaxyContext, galaxy_context
from runner.galaxy.install import Installer

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 110}

roles_path_option = click.option("-p", "--roles-path", "roles_path", type=click.Path(file_okay=False, path_type=Path),
                                  help="Roles directory (default: the first roles_path entry).")
insecure_option = click.option("--insecure", is_flag=True, default=None,
                               help="Allow plain HTTP to a registry that is not on loopback.")
ca_cert_option = click.option("--ca-cert", type=click.Path(dir_okay=False, exists=True),
                              help="CA certificates (PEM) the registry's TLS certificate chains to.")


def galaxy_cli_context(roles_path: Path | None = None, insecure: bool | None = None, ca_cert: str | None = None,
                       collections_path: Path | None = None) -> GalaxyContext:
    config = load_config()
    for warning in config.warnings:
        click.echo(f"[WARNING]: {warning}", err=True)
    return galaxy_context(config, roles_path=[roles_path] if roles_path else None, insecure=insecure,
                          ca_cert=ca_cert, collections_path=[collections_path] if collections_path else None)


def install_options(command: Callable[..., None]) -> Callable[..., None]:
    """--frozen, -U, -n and --force, the options of every install from a requirements file."""
    for option in reversed((
        click.option("--frozen", is_flag=True, help="Install exactly what the lock file lists; fail if it does "
                     "not match."),
        click.option("-U", "--update", is_flag=True, help="Resolve again, ignoring the versions in the lock file."),
        click.option("-n", "--no-deps", is_flag=True, help="Do not install dependencies."),
        click.option("--force", is_flag=True, help="Reinstall what is already installed with the same content."),
    )):
        command = option(command)
    return command


def run_install(context: GalaxyContext, requirements: Path | None, references: tuple[str, ...], *, frozen: bool,
                update: bool, no_deps: bool, force: bool, collection: bool = False) -> None:
    """Install a requirements file (roles and collections, one lock) or single references."""
    if bool(requirements) == bool(references):
        raise OptionError("give a requirements file with -r FILE, or references (not both)")
    if frozen and update:
        raise OptionError("--frozen and --update contradict each other: --frozen installs the lock as it is")
    installer = Installer(context, click.echo)
    if requirements is None:
        for reference in references:
            installer.install_one(reference, force=force, collection=collection)
        return
    report = installer.install_requirements(requirements, frozen=frozen, update=update,
                                            with_dependencies=not no_deps, force=force)
    for warning in report.warnings:
        click.echo(f"[WARNING]: {warning}", err=True)
    if report.lock_written:
        click.echo(f"- wrote {report.lock_path}")
