"""Names in a golden image registry: image keys match the images' names, versions name known images and build
jobs, replacements are versions of the same image, cache entries are of known versions."""

from __future__ import annotations

from collections.abc import Collection

from runner.platform_specs.golden_image import GoldenImageRegistry
from runner.platform_specs.references.problems import Problems
from runner.platform_specs.references.taskservs import check_image_taskservs


def check_registry(registry: GoldenImageRegistry, *, taskservs: Collection[str] | None, problems: Problems) -> None:
    for key, image in registry.images.items():
        if key != image.name:
            problems.add(f"image '{key}' is named '{image.name}'; the key must be the image's name",
                         registry.at("images", key, key=True))
        check_image_taskservs(image, taskservs, problems)
    for job in registry.builds:
        check_image_taskservs(job.image_config, taskservs, problems)
        if job.image_name != job.image_config.name:
            problems.add(f"build job '{job.job_id}' builds '{job.image_name}' but its image_config is named "
                         f"'{job.image_config.name}'", job.at("image_name"))
    problems.duplicates("build job", ((job.job_id, job.at("job_id")) for job in registry.builds))
    problems.duplicates("cache entry", ((entry.cache_id, entry.at("cache_id")) for entry in registry.cache))
    _check_versions(registry, problems)
    _check_cache(registry, problems)


def _check_versions(registry: GoldenImageRegistry, problems: Problems) -> None:
    images = list(registry.images)
    jobs = [job.job_id for job in registry.builds]
    problems.duplicates("version", ((_version_label(v.image_name, v.version, v.build_number), v.at("version"))
                                    for v in registry.versions))
    for version in registry.versions:
        if version.image_name not in images:
            problems.unknown(f"image '{version.image_name}' of version {version.version} is not in images",
                             version.image_name, images, version.at("image_name"))
        if version.build_job_id is not None and version.build_job_id not in jobs:
            problems.unknown(f"build job '{version.build_job_id}' is not in builds", version.build_job_id, jobs,
                             version.at("build_job_id"))
        siblings = [other.version for other in registry.versions if other.image_name == version.image_name]
        if version.replacement_version is not None and version.replacement_version not in siblings:
            problems.unknown(f"replacement version '{version.replacement_version}' is not a version of image "
                             f"'{version.image_name}'", version.replacement_version, siblings,
                             version.at("replacement_version"))


def _check_cache(registry: GoldenImageRegistry, problems: Problems) -> None:
    versions = {(version.image_name, version.version) for version in registry.versions}
    for entry in registry.cache:
        if (entry.image_name, entry.image_version) not in versions:
            problems.add(f"cache entry '{entry.cache_id}' holds {entry.image_name} {entry.image_version}, which is "
                         "not in versions", entry.at("image_version"))


def _version_label(image: str, version: str, build: int | None) -> str:
    return f"{image} {version}" + (f" build {build}" if build is not None else "")
