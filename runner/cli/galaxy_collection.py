"""``provisioning-galaxy collection build|push|pull|install|list``: Ansible collections through OCI registries.

A thin shell over ``runner.galaxy``; see docs/collections.md for the artifact, the requirements and the lock.
"""

from __future__ import annotations

from pathlib import Path

import click

from runner.cli.common import Group, report_errors
from runner.cli.galaxy_common import (
    ca_cert_option,
    galaxy_cli_context,
    insecure_option,
    install_options,
    run_install,
)
from runner.galaxy.collection_build import build_collection, collection_file_name
from runner.galaxy.collection_publish import push_collection
from runner.galaxy.install import Installer
from runner.galaxy.installed_collections import installed_collections
from runner.util.files import atomic_write_bytes

collections_path_option = click.option(
    "-p", "--collections-path", "collections_path", type=click.Path(file_okay=False, path_type=Path),
    help="Collections directory, holding ansible_collections/ (default: the first collections_path entry).")


@click.group(cls=Group)
def collection() -> None:
    """Build, publish and install Ansible collections."""


@collection.command("build")
@click.argument("directory", type=click.Path(file_okay=False, exists=True, path_type=Path), default=Path("."))
@click.option("--output-path", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              help="Directory to write NAMESPACE-NAME-VERSION.tar.gz to (default: the current one).")
@report_errors
def collection_build(directory: Path, output_path: Path) -> None:
    """Build the collection in DIRECTORY (its galaxy.yml) into a reproducible tarball; print its digest."""
    meta, archive = build_collection(directory)
    target = output_path / collection_file_name(meta)
    output_path.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(target, archive.data)
    click.echo(f"Created collection for {meta.namespace}.{meta.name} at {target}", err=True)
    click.echo(archive.digest)


@collection.command("push")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@click.argument("reference")
@click.option("--latest", is_flag=True, help="Also tag the pushed version 'latest'.")
@click.option("--force", is_flag=True, help="Replace a version that is already in the registry.")
@click.option("--source", help="URL of the collection's source (default: galaxy.yml's repository).")
@insecure_option
@ca_cert_option
@report_errors
def collection_push(path: Path, reference: str, latest: bool, force: bool, source: str | None,
                    insecure: bool | None, ca_cert: str | None) -> None:
    """Push PATH (a collection directory or a built tarball) as oci://HOST[:PORT]/NAMESPACE/NS.NAME[:VERSION]."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert)
    result = push_collection(context, path, context.reference(reference), force=force, latest=latest,
                             source=source)
    click.echo(f"- pushed {result.ref.at(version=result.ref.version)} ({', '.join(result.tags)})")
    click.echo(result.digest)


@collection.command("pull")
@click.argument("reference")
@click.option("--force", is_flag=True, help="Install even if the same content is installed.")
@collections_path_option
@insecure_option
@ca_cert_option
@report_errors
def collection_pull(reference: str, force: bool, collections_path: Path | None, insecure: bool | None,
                    ca_cert: str | None) -> None:
    """Install one collection (without its dependencies) from REFERENCE (a version, constraint, tag or @digest)."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert, collections_path=collections_path)
    Installer(context, click.echo).install_one(reference, force=force, collection=True)


@collection.command("install")
@click.argument("references", nargs=-1)
@click.option("-r", "--requirements-file", type=click.Path(dir_okay=False, path_type=Path),
              help="Requirements file: its collections and roles; its lock is written beside it.")
@install_options
@collections_path_option
@insecure_option
@ca_cert_option
@report_errors
def collection_install(references: tuple[str, ...], requirements_file: Path | None, frozen: bool, update: bool,
                       no_deps: bool, force: bool, collections_path: Path | None, insecure: bool | None,
                       ca_cert: str | None) -> None:
    """Install the collections (and roles) of a requirements file (-r) with their dependencies, or single
    collections by reference."""
    context = galaxy_cli_context(insecure=insecure, ca_cert=ca_cert, collections_path=collections_path)
    run_install(context, requirements_file, references, frozen=frozen, update=update, no_deps=no_deps, force=force,
                collection=True)


@collection.command("list")
@collections_path_option
@report_errors
def collection_list(collections_path: Path | None) -> None:
    """List installed collections with their version and digest."""
    context = galaxy_cli_context(collections_path=collections_path)
    for directory in context.collections_path:
        found = installed_collections(directory)
        if not found:
            continue
        click.echo(f"# {directory / 'ansible_collections'}")
        for item in found:
            digest = f" ({item.digest})" if item.digest else ""
            click.echo(f"- {item.name}, {item.version or '(unknown version)'}{digest}")
