"""``provisioning-infra image``: golden images, built from a spec and started from by servers
(``image: golden:NAME[@VERSION]``).

```
provisioning-infra image build SPEC [--check] [-v] [--report F]      (in runner.cli.infra: it runs plays)
provisioning-infra image list [NAME] [--images DIR] [--out table|json|yaml]
provisioning-infra image show NAME[@VERSION] [--images DIR] [--out ...]
provisioning-infra image delete NAME@VERSION [--yes] [--images DIR]
provisioning-infra image prune [--keep N] [--yes] [--images DIR] [--out ...]
```

The records are in ``--images DIR`` (``$PROVISIONING_IMAGES``, else the providers' default ``images_dir``); the
images themselves (local layers, AMIs) stay with their provider, which deletes them with their record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from runner.cli.common import Group, report_errors
from runner.cli.infra_output import confirm, emit, out_option
from runner.errors import OptionError
from runner.infra.image_outputs import ImageDetails, ImageList, ImageOutput
from runner.infra.provider_settings import DEFAULT_IMAGES_DIR, DEFAULT_LOCAL_STATE_DIR
from runner.providers import make_provider
from runner.providers.base import Provider
from runner.providers.golden import ImageCatalog, ImageEntry, parse_ref, short_id
from runner.util.table import render_table

images_option = click.option("--images", "images_dir", type=click.Path(file_okay=False, path_type=Path),
                             envvar="PROVISIONING_IMAGES", default=DEFAULT_IMAGES_DIR, show_default=True,
                             help="Where the golden images' records are ($PROVISIONING_IMAGES).")
state_dir_option = click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
                                envvar="PROVISIONING_LOCAL_STATE_DIR", default=DEFAULT_LOCAL_STATE_DIR,
                                show_default=True, help="The local provider's state directory (its layers).")


@click.group(cls=Group)
def image() -> None:
    """Build, list, show, delete and prune golden images."""


def output(entry: ImageEntry) -> ImageOutput:
    record = entry.record
    return ImageOutput(name=record.image_name, version=record.version, provider=entry.provider,
                       image_id=entry.image_id, region=entry.region, created_at=record.created_at.isoformat(),
                       size_gb=record.image_size_gb, checksum=record.checksum,
                       taskservs=dict(record.taskserv_versions or {}), deprecated=bool(record.deprecated))


def list_table(listing: ImageList) -> str:
    if not listing.images:
        return "no golden images"
    rows = [[item.name, item.version + (" (deprecated)" if item.deprecated else ""), item.provider,
             short_id(item.image_id), f"{item.size_gb:.2f}", item.created_at[:19],
             ", ".join(f"{name} {version}" for name, version in item.taskservs.items())]
            for item in listing.images]
    return render_table([["IMAGE", "VERSION", "PROVIDER", "ID", "GB", "CREATED", "TASKSERVS"], *rows])


def details_table(details: ImageDetails) -> str:
    return "\n".join(f"{key}: {value}" for key, value in details.record.items()) + (
        f"\nprovider: {details.provider}\nimage_id: {details.image_id}"
        + (f"\nregion: {details.region}" if details.region else ""))


@image.command("list")
@click.argument("name", required=False)
@images_option
@out_option
@report_errors
def image_list(name: str | None, images_dir: Path, out: str) -> None:
    """Every recorded version (of image NAME), oldest first."""
    emit(ImageList(images=[output(entry) for entry in ImageCatalog(images_dir).entries(name)]), out, list_table)


@image.command("show")
@click.argument("reference", metavar="NAME[@VERSION]")
@images_option
@out_option
@report_errors
def image_show(reference: str, images_dir: Path, out: str) -> None:
    """One version (the newest that is not deprecated when no VERSION is given) and its whole record."""
    entry = ImageCatalog(images_dir).find(parse_ref(reference))
    details = ImageDetails(**output(entry).model_dump(), record=entry.record.model_dump(mode="json",
                                                                                       exclude_none=True))
    emit(details, out, details_table)


@image.command("delete")
@click.argument("reference", metavar="NAME@VERSION")
@images_option
@state_dir_option
@click.option("-y", "--yes", is_flag=True, help="Delete without asking.")
@report_errors
def image_delete(reference: str, images_dir: Path, state_dir: Path, yes: bool) -> None:
    """Delete one version: its record, and the image itself unless a server still runs from it."""
    ref = parse_ref(reference)
    if ref.version is None:
        raise OptionError(f"name the version to delete: {ref.name}@VERSION (image list {ref.name} lists them)")
    catalog = ImageCatalog(images_dir)
    entry = catalog.find(ref)
    _confirm(f"Delete golden image {entry.ref}?", yes)
    for line in remove(catalog, [entry], state_dir):
        click.echo(line)


@image.command("prune")
@click.option("--keep", type=click.IntRange(min=1), default=1, show_default=True,
              help="Versions of each image to keep: the newest that are not deprecated.")
@images_option
@state_dir_option
@out_option
@click.option("-y", "--yes", is_flag=True, help="Prune without asking.")
@report_errors
def image_prune(keep: int, images_dir: Path, state_dir: Path, out: str, yes: bool) -> None:
    """Delete every version but the newest KEEP of each image (deprecated ones first), and local layers no
    record names; an image a server still runs from keeps its layer or AMI until that server is gone."""
    catalog = ImageCatalog(images_dir)
    doomed = [entry for name in catalog.names() for entry in prunable(catalog.entries(name), keep)]
    if doomed:
        _confirm(f"Delete {len(doomed)} golden image versions ({', '.join(str(e.ref) for e in doomed)})?", yes)
    lines = remove(catalog, doomed, state_dir)
    lines += _orphan_layers(catalog, state_dir)
    if out == "table":
        click.echo("\n".join(lines) or "nothing to prune")
    else:
        emit(ImageList(images=[output(entry) for entry in doomed]), out, list_table)


def prunable(entries: list[ImageEntry], keep: int) -> list[ImageEntry]:
    """What pruning removes of one image's versions (oldest first): all but the newest ``keep`` that are not
    deprecated."""
    current = [entry for entry in entries if not entry.record.deprecated][-keep:]
    return [entry for entry in entries if entry not in current]


def remove(catalog: ImageCatalog, entries: list[ImageEntry], state_dir: Path) -> list[str]:
    """Delete the records, then each image no other record names and no server runs from."""
    lines = []
    for entry in entries:
        catalog.remove(entry)
        provider = _provider(entry, catalog, state_dir)
        shared = any(other.image_id == entry.image_id for other in catalog.entries())
        if shared or entry.image_id in provider.images_in_use():
            why = "another version names it" if shared else "a server runs from it"
            lines.append(f"deleted golden image {entry.ref} (its image {short_id(entry.image_id)} kept: {why})")
        else:
            provider.delete_image(entry.image_id)
            lines.append(f"deleted golden image {entry.ref} and its image {short_id(entry.image_id)}")
    return lines


def _orphan_layers(catalog: ImageCatalog, state_dir: Path) -> list[str]:
    """Local layers that no record names and no server uses (a record deleted by hand)."""
    provider = make_provider("local", {"state_dir": str(state_dir), "images_dir": str(catalog.directory)})
    layers_dir = getattr(provider, "layers_dir")  # noqa: B009 - the local provider's own property
    if not layers_dir.is_dir():
        return []
    named = {entry.image_id for entry in catalog.entries() if entry.provider == "local"} | provider.images_in_use()
    lines = []
    for layer in sorted(layers_dir.iterdir()):
        if layer.is_dir() and not layer.name.startswith(".") and layer.name not in named:
            provider.delete_image(layer.name)
            lines.append(f"deleted local layer {short_id(layer.name)} (no golden image names it)")
    return lines


def _provider(entry: ImageEntry, catalog: ImageCatalog, state_dir: Path) -> Provider:
    settings: dict[str, Any] = {"images_dir": str(catalog.directory)}
    if entry.provider == "local":
        settings["state_dir"] = str(state_dir)
    return make_provider(entry.provider, settings, region=entry.region)


def _confirm(question: str, yes: bool) -> None:
    if not yes:
        confirm(question)
