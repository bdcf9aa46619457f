"""Seed files: the kinds of file there are, and reading one with every problem reported at its file:line:col.

A kind is a schema's name in kebab case (``VolumeConfig`` → ``volume-config``), one per schema of the original
files, plus ``nested-provisioning`` for the document that ties the nested provisioning schemas together;
``oci-registry-config`` reads a registry configuration as the model its ``type`` names (Zot, Harbor, other).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Any

from runner.errors import OptionError, SourcePosition, UserError, did_you_mean
from runner.loader.yaml import load_yaml_file
from runner.models.validation import raise_collected, validate
from runner.platform_specs.base import SeedModel
from runner.platform_specs.document import NestedProvisioning
from runner.platform_specs.golden_image import GOLDEN_IMAGE_SCHEMAS
from runner.platform_specs.nested import NESTED_SCHEMAS
from runner.platform_specs.oci_registry import OCI_REGISTRY_SCHEMAS, AnyOCIRegistryConfig, OCIRegistryConfig
from runner.platform_specs.references import check_references


def kind_of(model: type[SeedModel]) -> str:
    """``NestedVmConfig`` → ``nested-vm-config``, ``OCIRegistryConfig`` → ``oci-registry-config``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "-", model.__name__).lower()


def _summary(model: type[SeedModel]) -> str:
    """The first sentence of the schema's description."""
    return " ".join((model.__doc__ or "").split()).split(". ")[0].rstrip(".")


_SEED_MODELS: tuple[type[SeedModel], ...] = (
    NestedProvisioning, *NESTED_SCHEMAS, *GOLDEN_IMAGE_SCHEMAS, *OCI_REGISTRY_SCHEMAS)

# kind → (what a file of that kind holds, the type it is read into)
SEED_KINDS: dict[str, tuple[str, Any]] = {
    kind_of(model): (_summary(model), model)
    for model in _SEED_MODELS
}
SEED_KINDS[kind_of(OCIRegistryConfig)] = (
    "OCI registry configuration for artifact and image distribution (any type: Zot, Harbor, distribution, "
    "artifactory)", AnyOCIRegistryConfig)


def validate_seed(data: Any, kind: str, *, where: SourcePosition | None = None,
                  taskservs: Collection[str] | None = None, golden_images: Collection[str] | None = None) -> Any:
    """``data`` (as ``runner.loader.yaml`` reads it) as a model of ``kind``, its references checked.

    Raises ``ParseError`` for one problem and ``runner.models.validation.ParseErrors`` for several, each at its
    file:line:col. References are checked once the document reads as its schema (they need every name read);
    see ``check_references`` for ``taskservs`` and ``golden_images``.
    """
    _, target = _target(kind)
    errors: list[UserError] = []
    model = validate(target, data, errors=errors, where=where)
    if model is not None:
        errors.extend(check_references(model, taskservs=taskservs, golden_images=golden_images))
    raise_collected(errors)
    return model


def validate_seed_file(path: str | Path, kind: str, *, taskservs: Collection[str] | None = None,
                       golden_images: Collection[str] | None = None) -> Any:
    """The YAML file at ``path`` as a model of ``kind`` (see ``validate_seed``)."""
    _target(kind)  # a bad kind is the caller's mistake, reported before the file is read
    return validate_seed(load_yaml_file(path), kind, where=SourcePosition(str(path)), taskservs=taskservs,
                         golden_images=golden_images)


def _target(kind: str) -> tuple[str, Any]:
    if kind not in SEED_KINDS:
        raise OptionError(f"unknown seed kind '{kind}'", hint=did_you_mean(kind, list(SEED_KINDS))
                          or f"one of: {', '.join(sorted(SEED_KINDS))}")
    return SEED_KINDS[kind]
