"""Taskserv names in golden images and build steps: pinned and excluded names agree with the installed ones,
and, given the catalogue of taskservs (the roles that declare one), every name is a known taskserv."""

from __future__ import annotations

from collections.abc import Collection

from runner.platform_specs.golden_image import GoldenImageConfig, ImageBuildSteps
from runner.platform_specs.references.problems import Problems


def check_image_taskservs(image: GoldenImageConfig, catalogue: Collection[str] | None, problems: Problems) -> None:
    installed = image.taskservs or []
    for index, name in enumerate(installed):
        _known(name, catalogue, problems, image, "taskservs", index)
    for index, name in enumerate(image.exclude_taskservs or []):
        _known(name, catalogue, problems, image, "exclude_taskservs", index)
        if name in installed:
            problems.add(f"taskserv '{name}' is both installed and excluded in image '{image.name}'",
                         image.at("exclude_taskservs", index))
    for name in image.taskserv_versions or {}:
        if name not in installed:
            problems.unknown(f"taskserv_versions pins '{name}', which image '{image.name}' does not install",
                             name, installed, image.at("taskserv_versions", name, key=True))


def check_install_order(steps: ImageBuildSteps, catalogue: Collection[str] | None, problems: Problems) -> None:
    for index, name in enumerate(steps.install_order or []):
        _known(name, catalogue, problems, steps, "install_order", index)


def _known(name: str, catalogue: Collection[str] | None, problems: Problems,
           owner: GoldenImageConfig | ImageBuildSteps, field: str, index: int) -> None:
    if catalogue is not None and name not in catalogue:
        problems.unknown(f"taskserv '{name}' is not defined", name, catalogue, owner.at(field, index))
