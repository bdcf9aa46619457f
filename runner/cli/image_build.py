"""``provisioning-infra image build SPEC``: a temporary server, the image's taskservs on it, captured as an image.

1. The spec (``runner.infra.images``) becomes an infra of one server, ``NAME-build``; its server and taskserv
   plays are compiled before anything starts, so a bad spec or taskserv costs no server.
2. The plays run as ``server create`` runs them (same output, ``-v``, ``--report``); a failed run records nothing.
3. The provider captures the server (a local server is stopped and its upper layer captured; an aws one becomes
   an AMI), and the platform's ``GoldenImageVersion`` is validated and recorded in the provider's ``images_dir``.
4. The temporary server is deleted whatever happened (a failed run, Ctrl-C, a failed capture).
"""

from __future__ import annotations

import getpass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click

from runner.cli.project import Project
from runner.cli.run import run_plan
from runner.compiler import Compiler
from runner.compiler.infra import InfraPlays, compile_generated, taskserv_catalog
from runner.errors import ExitCode, UserError
from runner.infra.images import GoldenImageSpec, build_infra, load_image_spec
from runner.models.validation import validate
from runner.platform_specs.golden_image import GoldenImageVersion
from runner.providers import ensure_absent, provider_for
from runner.providers.base import CapturedImage, Provider, ProviderError, ServerState
from runner.providers.golden import PREFIX, ImageCatalog, ImageEntry, version_key

GIB = 1 << 30


def build_image(spec_path: Path, project: Project, compiler: Compiler, options: dict[str, Any]) -> int:
    """Build the image ``spec_path`` describes; the run's exit code (0 once the version is recorded)."""
    spec, data = load_image_spec(spec_path)
    infra = build_infra(spec, data, spec_path)
    plays = InfraPlays(infra, spec_path, taskserv_catalog(compiler, spec_path))
    server = infra.servers[0]
    generated = [*plays.server_plays([server]), *plays.taskserv_plays([server])]
    plays.check()
    taskservs = _taskserv_versions(plays, spec)
    plan = compile_generated(compiler, generated, spec_path)
    provider = provider_for(infra, server)
    catalog = ImageCatalog(provider.settings.images_dir)
    version = spec.version or next_version(catalog, spec.name)
    if any(entry.record.version == version for entry in catalog.entries(spec.name)):
        raise UserError(f"golden image {spec.name} has a version {version} already: delete it or build another "
                        "version")
    run = {"limit": None, "connection": None, **options}
    try:
        code = run_plan(plan, compiler, project, run, extra_vars={}, playbook_dir=spec_path.resolve().parent,
                        reports=options.get("reports", ()), kind="infra")
        if code != ExitCode.OK:
            return code
        if options["check"]:
            click.echo(f"would build golden image {PREFIX}{spec.name}@{version} on {provider.name} server "
                       f"{server.hostname}")
            return code
        state = provider.find(server.hostname)
        if state is None:
            raise ProviderError(f"the build server {server.hostname} is gone: nothing to capture")
        entry = capture_version(provider, state, spec, version, taskservs)
        catalog.add(entry)
        click.echo(f"golden image {entry.ref}: {entry.record.image_path} ({entry.record.image_size_gb:.2f} GB, "
                   f"sha256 {entry.record.checksum[:12]}...)")
        return int(ExitCode.OK)
    finally:
        if not options["check"]:
            _delete_quietly(provider, server.hostname)


def capture_version(provider: Provider, state: ServerState, spec: GoldenImageSpec, version: str,
                    taskservs: dict[str, str]) -> ImageEntry:
    """Capture the build server as version ``version`` of the image: the provider's image and the platform's
    record of it (validated, not yet written)."""
    started = datetime.now(UTC)
    captured = provider.capture_image(state, f"{spec.name}-{version}")
    record = _record(spec, version, captured, taskservs, started, _base_version(spec, provider))
    return ImageEntry(record, provider.name, captured.image_id, getattr(provider, "region", None))


def next_version(catalog: ImageCatalog, name: str) -> str:
    """The newest recorded version's next patch (1.0.3 after 1.0.2), or 1.0.0 for a new image."""
    versions = sorted((entry.record.version for entry in catalog.entries(name)), key=version_key)
    newest = version_key(versions[-1]) if versions else None
    if newest is None or newest[0] == 0:
        return "1.0.0" if not versions else f"{versions[-1]}.1"
    release = newest[1].release  # type: ignore[union-attr]
    major, minor, patch = (*release, 0, 0)[:3]
    return f"{major}.{minor}.{patch + 1}"


def _taskserv_versions(plays: InfraPlays, spec: GoldenImageSpec) -> dict[str, str]:
    """Each taskserv the image holds (requirements and the base included) and its role's version; a pin in
    ``taskserv_versions`` that the role does not match is an error before anything starts."""
    order = plays.order_of(plays.infra.servers[0])
    plays.check()
    assert order is not None
    versions = {step.name: step.taskserv.version or "" for step in order.resolution.steps}
    wrong = [f"{name} {pinned} (the role is {versions.get(name) or 'not installed by this image'})"
             for name, pinned in (spec.taskserv_versions or {}).items() if versions.get(name) != pinned]
    if wrong:
        raise UserError(f"golden image {spec.name}: taskserv_versions pins what its roles do not give: "
                        + ", ".join(wrong), spec.at("taskserv_versions"))
    return versions


def _record(spec: GoldenImageSpec, version: str, captured: CapturedImage, taskservs: dict[str, str],
            started: datetime, base: str | None) -> GoldenImageVersion:
    """The platform's record of the new version, validated by its schema."""
    return validate(GoldenImageVersion, {
        "image_name": spec.name, "version": version, "created_at": started.isoformat(),
        "created_by": _user(), "description": spec.description, "image_path": captured.location,
        "image_size_gb": round(captured.size_bytes / GIB, 3), "checksum": captured.checksum,
        "base_image_version": base, "taskserv_versions": taskservs,
        "build_job_id": f"{spec.name}-{version}-{started.strftime('%Y%m%dT%H%M%SZ')}",
    })


def _base_version(spec: GoldenImageSpec, provider: Provider) -> str | None:
    """What the image was built on: a local image's lower layer is this machine's root; elsewhere the spec's
    base_os and os_version say it."""
    if provider.name != "local":
        return f"{spec.base_os} {spec.os_version}"
    try:
        return "debian " + Path("/etc/debian_version").read_text().strip()
    except OSError:
        return None


def _user() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return None


def _delete_quietly(provider: Provider, hostname: str) -> None:
    """The build server goes in every case; failing to delete it is said, not raised over the first error."""
    try:
        ensure_absent(provider, hostname)
    except UserError as error:
        click.echo(f"WARNING: the build server {hostname} could not be deleted: {error.message}")
