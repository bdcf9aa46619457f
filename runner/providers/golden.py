"""Golden images: the record of every captured version, and ``golden:NAME[@VERSION]`` references to them.

Each version is one JSON file, ``<images_dir>/<name>/<version>.json``: the platform's ``GoldenImageVersion``
(validated before it is written and when it is read) plus what the provider needs to start a server from it
(``provider``, ``image_id``: a local layer's digest, an AMI id). Files are written by rename, so a record is
whole or absent. ``golden:web`` is the newest version of ``web`` that is not deprecated; ``golden:web@1.2.0``
one version exactly.
"""

from __future__ import annotations

import json
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeGuard

from packaging.version import InvalidVersion, Version

from runner.errors import UserError, did_you_mean
from runner.infra.provider_settings import DEFAULT_IMAGES_DIR
from runner.models.validation import validate
from runner.platform_specs.golden_image import GoldenImageVersion
from runner.providers.base import ProviderError

__all__ = ["DEFAULT_IMAGES_DIR", "PREFIX", "ImageCatalog", "ImageEntry", "ImageRef", "is_golden", "parse_ref",
           "short_id"]

PREFIX = "golden:"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


@dataclass(frozen=True)
class ImageRef:
    """``golden:NAME[@VERSION]``; no version means the newest that is not deprecated."""

    name: str
    version: str | None = None

    def __str__(self) -> str:
        return PREFIX + self.name + (f"@{self.version}" if self.version else "")


def is_golden(image: str | None) -> TypeGuard[str]:
    return bool(image) and str(image).startswith(PREFIX)


def parse_ref(text: str) -> ImageRef:
    name, _, version = text.removeprefix(PREFIX).partition("@")
    if not _NAME.match(name) or (version and not _NAME.match(version)):
        raise UserError(f"'{text}' is not a golden image: expected golden:NAME or golden:NAME@VERSION")
    return ImageRef(name, version or None)


@dataclass(frozen=True)
class ImageEntry:
    """One recorded version: the platform's record and where the provider keeps the image."""

    record: GoldenImageVersion
    provider: str
    image_id: str
    region: str | None = None

    @property
    def ref(self) -> ImageRef:
        return ImageRef(self.record.image_name, self.record.version)

    def as_data(self) -> dict[str, Any]:
        record = self.record.model_dump(mode="json", exclude_none=True)
        return {"provider": self.provider, "image_id": self.image_id, "region": self.region, "record": record}


def short_id(image_id: str) -> str:
    """An image id for people: a local layer's digest shortened as git shortens commits, an AMI id whole."""
    return image_id[:12] if len(image_id) == 64 else image_id


def version_key(version: str) -> tuple[int, Version | str]:
    """Order versions as versions where they parse (1.10.0 after 1.9.0), else as text, before them."""
    try:
        return (1, Version(version))
    except InvalidVersion:
        return (0, version)


class ImageCatalog:
    """The recorded versions under one directory."""

    def __init__(self, directory: str | Path):
        self.directory = Path(directory)

    def entries(self, name: str | None = None) -> list[ImageEntry]:
        """Every recorded version (of image ``name``), by image name, oldest version first."""
        if not self.directory.is_dir():
            return []
        pattern = f"{name}/*.json" if name else "*/*.json"
        found = [self._read(path) for path in self.directory.glob(pattern)]
        return sorted(found, key=lambda entry: (entry.record.image_name, version_key(entry.record.version)))

    def names(self) -> list[str]:
        return sorted({entry.record.image_name for entry in self.entries()})

    def find(self, ref: ImageRef) -> ImageEntry:
        """The version ``ref`` names; an error naming what there is when none fits."""
        entries = self.entries(ref.name)
        if not entries:
            raise ProviderError(f"no golden image '{ref.name}' in {self.directory}",
                                hint=did_you_mean(ref.name, self.names()))
        if ref.version is None:
            current = [entry for entry in entries if not entry.record.deprecated]
            if not current:
                raise ProviderError(f"every version of golden image '{ref.name}' is deprecated: name one "
                                    f"({', '.join(entry.record.version for entry in entries)})")
            return current[-1]
        for entry in entries:
            if entry.record.version == ref.version:
                return entry
        raise ProviderError(f"golden image '{ref.name}' has no version {ref.version} (it has "
                            f"{', '.join(entry.record.version for entry in entries)})")

    def add(self, entry: ImageEntry) -> Path:
        """Write the record of a new version (an existing one of the same version is an error)."""
        path = self._path(entry.record.image_name, entry.record.version)
        if path.exists():
            raise ProviderError(f"golden image {entry.ref} exists already: delete it or build another version")
        path.parent.mkdir(parents=True, exist_ok=True)
        staging = path.with_name(f".{path.name}.{uuid.uuid4().hex}")
        staging.write_text(json.dumps(entry.as_data(), indent=2) + "\n")
        os.replace(staging, path)
        return path

    def remove(self, entry: ImageEntry) -> None:
        path = self._path(entry.record.image_name, entry.record.version)
        path.unlink(missing_ok=True)
        try:
            path.parent.rmdir()  # the image's last version: its directory goes too
        except OSError:
            pass

    def _path(self, name: str, version: str) -> Path:
        return self.directory / name / f"{version}.json"

    def _read(self, path: Path) -> ImageEntry:
        try:
            data = json.loads(path.read_text())
            record = validate(GoldenImageVersion, data["record"])
            return ImageEntry(record, data["provider"], data["image_id"], data.get("region"))
        except UserError as error:
            raise ProviderError(f"{path}: not a golden image record ({error.message})") from None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ProviderError(f"{path}: not a golden image record ({error})") from None


def found_in_image(images_dir: str | Path, image: str, taskservs: list[tuple[str, str | None]]) -> str:
    """What a server started from ``image`` finds installed of its ``taskservs`` (name, version): those the
    image holds at the same version are reported ``ok``; the others are installed (over the image's)."""
    try:
        entry = ImageCatalog(images_dir).find(parse_ref(image))
    except UserError as error:
        return f"image {image}: {error.message}"
    held = entry.record.taskserv_versions or {}
    found = [f"{name} {version}" for name, version in taskservs if version is not None and held.get(name) == version]
    other = [f"{name} ({held[name]} in the image, {version} wanted)" if name in held else name
             for name, version in taskservs if not (version is not None and held.get(name) == version)]
    note = f"from golden image {entry.ref}: ok (in the image): {', '.join(found) or 'none'}"
    return note + (f"; to install: {', '.join(other)}" if other else "")
