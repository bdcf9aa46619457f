"""Names that refer to other entries of a seed document, checked across the whole document.

The original schemas check each mapping on its own; a VM's ``parent_vm``, the networks and volumes it names, its
``from_golden_image``, a snapshot's volume, an image's taskservs, a version's build job, a quota's namespace are
plain strings there. ``check_references`` resolves them and returns every problem, each at the name that does
not resolve (with a did-you-mean), instead of raising at the first.
"""

from __future__ import annotations

from collections.abc import Collection

from runner.errors import UserError
from runner.platform_specs.base import SeedModel
from runner.platform_specs.document import NestedProvisioning
from runner.platform_specs.golden_image import (
    GoldenImageBuildJob,
    GoldenImageConfig,
    GoldenImageRegistry,
    ImageBuildSteps,
)
from runner.platform_specs.nested import MultiTierDeployment
from runner.platform_specs.oci_registry import OCIRegistryConfig
from runner.platform_specs.references.golden_image import check_registry
from runner.platform_specs.references.nested import check_deployment, check_document
from runner.platform_specs.references.oci_registry import check_registry_config
from runner.platform_specs.references.problems import Problems
from runner.platform_specs.references.taskservs import check_image_taskservs, check_install_order


def check_references(document: SeedModel, *, taskservs: Collection[str] | None = None,
                     golden_images: Collection[str] | None = None) -> list[UserError]:
    """Every reference problem of ``document`` (a validated seed model), in no particular order.

    ``taskservs`` is the catalogue of taskserv names (the roles that declare a taskserv); without it, taskserv
    names are checked only against each other. ``golden_images`` names images defined elsewhere (a golden image
    registry); a ``NestedProvisioning`` document adds its own, and there a VM's ``from_golden_image`` must name
    one of them. A deployment checked on its own checks ``from_golden_image`` only when ``golden_images`` is
    given, and no policy limits (the policy belongs to the document).
    """
    problems = Problems()
    match document:
        case NestedProvisioning():
            check_document(document, taskservs=taskservs, golden_images=golden_images, problems=problems)
        case MultiTierDeployment():
            check_deployment(document, golden_images=golden_images, policy=None, problems=problems)
        case GoldenImageRegistry():
            check_registry(document, taskservs=taskservs, problems=problems)
        case GoldenImageConfig():
            check_image_taskservs(document, taskservs, problems)
        case GoldenImageBuildJob():
            check_image_taskservs(document.image_config, taskservs, problems)
        case ImageBuildSteps():
            check_install_order(document, taskservs, problems)
        case OCIRegistryConfig():
            check_registry_config(document, problems)
    return problems.errors


__all__ = ["check_references"]
