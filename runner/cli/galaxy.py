"""``provisioning-galaxy``: roles shared through OCI registries (like ansible-galaxy, with registries as the hub).

``role init|build|push|pull|list|remove|versions|info``, ``collection build|push|pull|install|list``,
``install -r requirements.yml``, ``login``/``logout``.
A thin shell over ``runner.galaxy``; see docs/roles-oci.md for the artifact and file formats.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from runner.cli.common import Group, report_errors
from runner.cli.galaxy_collection import collection
from runner.cli.galaxy_common import (
    CONTEXT_SETTINGS,
    ca_cert_option,
    galaxy_cli_context,
    insecure_option,
    install_options,
    roles_path_option,
    run_install,
)
from runner.errors import OptionError
from runner.galaxy.client import RegistryClient
from runner.galaxy.credentials import Credentials
from runner.galaxy.install import Installer
from runner.galaxy.installed import installed_roles, remove_role
from runner.galaxy.publish import build_role, push_role
from runner.galaxy.reference import looks_like_host
from runner.galaxy.skeleton import init_role
from runner.galaxy.store import RoleStore
from runner.galaxy.yamltext import to_yaml
from runner.util.versions import ConstraintError, parse_constraint


@click.group(cls=Group, context_settings=CONTEXT_SETTINGS)
def main() -> None:
    """Share roles (taskservs included) through OCI registries."""


@main.group(cls=Group)
def role() -> None:
    """Create, publish and fetch roles."""


@role.command("init")
@click.argument("name")
@click.option("--init-path", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              help="Directory to create the role in (default: the current one).")
@click.option("--taskserv", is_flag=True, help="Declare the role as a taskserv in meta/main.yml.")
@click.option("--force", is_flag=True, help="Write the skeleton over an existing directory.")
@report_errors
def role_init(name: str, init_path: Path, taskserv: bool, force: bool) -> None:
    """Create a role skeleton NAME."""
    path = init_role(name, init_path, taskserv=taskserv, force=force)
    click.echo(f"- Role {name} was created successfully in {path}")


@role.command("build")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Archive to write (default: NAME.tar.gz in the current directory).")
@report_errors
def role_build(directory: Path, output: Path | None) -> None:
    """Pack DIRECTORY into a reproducible archive and print its digest."""
    archive = build_role(directory)
    target = output or Path(f"{directory.resolve().name}.tar.gz")
    target.write_bytes(archive.data)
    click.echo(f"- {archive.entries} entries, {archive.size} bytes: {target}", err=True)
    click.echo(archive.digest)


@role.command("push")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path))
@click.argument("reference")
@click.option("--latest", is_flag=True, help="Also tag the pushed version 'latest'.")
@click.option("--force", is_flag=True, help="Replace a version that is already in the registry.")
@click.option("--source", help="URL of the role's source (annotation org.opencontainers.image.source).")
@insecure_option
@ca_cert_option
@report_errors
def role_push(directory: Path, reference: str, latest: bool, force: bool, source: str | None,
              insecure: bool | None, ca_cert: str | None) -> None:
    """Push DIRECTORY as oci://HOST[:PORT]/NAMESPACE/NAME:VERSION."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert)
    result = push_role(context, directory, context.reference(reference), force=force, latest=latest, source=source)
    click.echo(f"- pushed {result.ref.at(version=result.ref.version)} ({', '.join(result.tags)})")
    click.echo(result.digest)


@role.command("pull")
@click.argument("reference")
@click.option("--name", help="Install under this name (default: the repository's last part).")
@click.option("--force", is_flag=True, help="Install even if the same content is installed.")
@roles_path_option
@insecure_option
@ca_cert_option
@report_errors
def role_pull(reference: str, name: str | None, force: bool, roles_path: Path | None, insecure: bool | None,
              ca_cert: str | None) -> None:
    """Install one role (without its dependencies) from REFERENCE (a version, constraint, tag or @digest)."""
    installer = Installer(galaxy_cli_context(roles_path, insecure, ca_cert), click.echo)
    installer.install_one(reference, name=name, force=force)


@role.command("list")
@roles_path_option
@report_errors
def role_list(roles_path: Path | None) -> None:
    """List installed roles with their version and digest."""
    context = galaxy_cli_context(roles_path)
    for directory in context.roles_path:
        roles = installed_roles(directory)
        if not roles:
            continue
        click.echo(f"# {directory}")
        for found in roles:
            digest = f" ({found.digest})" if found.digest else ""
            click.echo(f"- {found.name}, {found.version or '(unknown version)'}{digest}")


@role.command("remove")
@click.argument("names", nargs=-1, required=True)
@roles_path_option
@report_errors
def role_remove(names: tuple[str, ...], roles_path: Path | None) -> None:
    """Remove installed roles."""
    context = galaxy_cli_context(roles_path)
    for name in names:
        removed = remove_role(name, context.roles_path)
        click.echo(f"- successfully removed {name}" if removed else f"- {name} is not installed, skipping.")


@role.command("versions")
@click.argument("reference")
@insecure_option
@ca_cert_option
@report_errors
def role_versions(reference: str, insecure: bool | None, ca_cert: str | None) -> None:
    """List a role's versions in its registry, lowest first (tags that are no versions after them)."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert)
    store = RoleStore(context)
    ref = context.reference(reference)
    tags = store.tags(ref)
    versions = store.versions(ref)
    for tag in [*versions, *(tag for tag in tags if tag not in versions)]:
        click.echo(tag)


@role.command("info")
@click.argument("reference")
@insecure_option
@ca_cert_option
@report_errors
def role_info(reference: str, insecure: bool | None, ca_cert: str | None) -> None:
    """Show a role's metadata: version, digest, annotations, dependencies, taskserv section."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert)
    store = RoleStore(context)
    ref = context.reference(reference)
    if not ref.digest:
        try:
            constraint = parse_constraint(ref.version)
        except ConstraintError:
            constraint = None  # a plain tag
        if constraint is not None:
            best = constraint.best(store.versions(ref))
            if best is None:
                raise OptionError(f"no version of {ref.source} satisfies {constraint}")
            ref = ref.at(version=best)
    artifact = store.artifact(ref)
    config = artifact.config
    click.echo(to_yaml({
        "name": config.name, "version": config.version, "source": artifact.ref.source, "digest": artifact.digest,
        "annotations": artifact.manifest.annotations, "description": config.description,
        "dependencies": [dependency.model_dump(exclude_none=True) for dependency in config.dependencies],
        "taskserv": config.taskserv, "size": artifact.manifest.layer.size,
    }).rstrip())


@main.command("install")
@click.argument("references", nargs=-1)
@click.option("-r", "--role-file", type=click.Path(dir_okay=False, path_type=Path),
              help="Requirements file (requirements.yml): its roles and collections; its lock is written beside it.")
@install_options
@roles_path_option
@click.option("--collections-path", type=click.Path(file_okay=False, path_type=Path),
              help="Collections directory (default: the first collections_path entry).")
@insecure_option
@ca_cert_option
@report_errors
def install(references: tuple[str, ...], role_file: Path | None, frozen: bool, update: bool, no_deps: bool,
            force: bool, roles_path: Path | None, collections_path: Path | None, insecure: bool | None,
            ca_cert: str | None) -> None:
    """Install the roles and collections of a requirements file (-r) with their dependencies, or single roles by
    reference."""
    context = galaxy_cli_context(roles_path, insecure, ca_cert, collections_path)
    run_install(context, role_file, references, frozen=frozen, update=update, no_deps=no_deps, force=force)


role.add_command(install, "install")
main.add_command(collection)


@main.command("login")
@click.argument("registry")
@click.option("-u", "--username", help="User name (asked for when not given).")
@click.option("--password-stdin", is_flag=True, help="Read the password from standard input.")
@insecure_option
@ca_cert_option
@report_errors
def login(registry: str, username: str | None, password_stdin: bool, insecure: bool | None,
          ca_cert: str | None) -> None:
    """Log in to REGISTRY (HOST[:PORT]) and store the credentials (Docker config.json format)."""
    registry = registry.removeprefix("oci://").rstrip("/")
    if not looks_like_host(registry.split("/")[0]) or "/" in registry:
        raise OptionError(f"'{registry}' is not a registry host (expected HOST[:PORT])")
    username = username or click.prompt("Username")
    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else click.prompt("Password", hide_input=True)
    if not password:
        raise OptionError("an empty password was given")
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert)
    credentials = Credentials(username, password)
    RegistryClient(replace(context.connection(registry), credentials=credentials)).connect()
    context.credentials.save(registry, credentials)
    click.echo(f"Login Succeeded (credentials stored in {context.credentials.path})")


@main.command("logout")
@click.argument("registry")
@report_errors
def logout(registry: str) -> None:
    """Forget the stored credentials of REGISTRY."""
    registry = registry.removeprefix("oci://").rstrip("/")
    context = galaxy_cli_context()
    if context.credentials.remove(registry):
        click.echo(f"Removed login credentials for {registry}")
    else:
        click.echo(f"Not logged in to {registry}")
