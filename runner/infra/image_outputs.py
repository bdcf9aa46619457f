"""What ``provisioning-infra image list|show|prune`` print with ``--out json`` (or ``yaml``)."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from runner.infra.outputs import Output


class ImageOutput(Output):
    """One recorded version of a golden image."""

    name: str
    version: str
    provider: str
    image_id: str = Field(description="The provider's id: a local layer's digest, an AMI id")
    region: str | None
    created_at: str
    size_gb: float
    checksum: str = Field(description="SHA-256 of the image's content (a local layer) or of its identity (an AMI)")
    taskservs: dict[str, str] = Field(description="The taskservs it holds and their versions")
    deprecated: bool


class ImageList(Output):
    """``image list`` (and ``image prune``: the versions it removed)."""

    images: list[ImageOutput]


class ImageDetails(ImageOutput):
    """``image show``: also the platform's whole GoldenImageVersion record."""

    record: dict[str, Any] = Field(description="The GoldenImageVersion record, as the platform's schema has it")


IMAGE_OUTPUT_SCHEMAS: dict[str, tuple[str, Any]] = {
    "infra-image-list.schema.json": ("provisioning-infra image list --out json", ImageList),
    "infra-image.schema.json": ("provisioning-infra image show --out json", ImageDetails),
}
