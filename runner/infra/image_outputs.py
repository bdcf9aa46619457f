"""What ``provisioning-infra image list|show|prune`` and ``taskserv check-updates`` print with ``--out json``
(or ``yaml``)."""

from __future__ import annotations

from typing import Any, Literal

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


class UpdateEntry(Output):
    """One source of one taskserv on one server: what is installed and what the source offers."""

    server: str
    taskserv: str
    source: Literal["apt", "oci", "none"] = Field(
        description="apt: a Debian package of the role; oci: the role itself, from a registry; none: neither")
    item: str = Field(description="The package, or the role's oci:// source")
    installed: str | None = Field(description="The installed version; null when not installed")
    available: str | None = Field(description="What the source offers now (apt's candidate, the newest tag)")
    status: str = Field(description="'up to date', 'update available', 'not installed', 'no source', "
                                    "'server down' or 'unknown (why)'")


class TaskservUpdates(Output):
    """``taskserv check-updates`` and ``taskserv update --check``."""

    infra: str
    updates: list[UpdateEntry]


IMAGE_OUTPUT_SCHEMAS: dict[str, tuple[str, Any]] = {
    "infra-image-list.schema.json": ("provisioning-infra image list --out json", ImageList),
    "infra-image.schema.json": ("provisioning-infra image show --out json", ImageDetails),
    "infra-taskserv-updates.schema.json": ("provisioning-infra taskserv check-updates --out json", TaskservUpdates),
}
