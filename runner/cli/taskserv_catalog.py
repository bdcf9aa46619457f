"""``provisioning-infra taskserv catalog``: every taskserv a project can install, from its roles' taskserv
sections (roles on the roles path, installed roles included)."""

from __future__ import annotations

from runner.errors import UserError
from runner.infra.outputs import Catalog, CatalogEntry
from runner.models.taskserv import HealthCheck, Requirement
from runner.models.validation import raise_collected
from runner.taskservs.catalog import TaskservCatalog
from runner.util.table import render_table


def catalog_of(catalog: TaskservCatalog) -> Catalog:
    """Every role found, with what its taskserv section says; a role whose meta does not read is an error."""
    entries = []
    errors: list[UserError] = []
    for name in catalog.names():
        try:
            taskserv = catalog.get(name)
        except UserError as error:
            errors.append(error)
            continue
        meta = taskserv.meta
        entries.append(CatalogEntry(
            name=name, version=taskserv.version, requires=[_requirement(r) for r in meta.requires],
            optional=[_requirement(r) for r in meta.optional], provides=list(meta.provides),
            conflicts=list(meta.conflicts), health_check=_health_check(meta.health_check), path=str(taskserv.path)))
    raise_collected(errors)
    return Catalog(taskservs=entries)


def catalog_table(catalog: Catalog) -> str:
    rows = [("NAME", "VERSION", "REQUIRES", "PROVIDES", "CONFLICTS", "HEALTH CHECK")]
    rows += [(entry.name, entry.version or "-", ", ".join(entry.requires) or "-", ", ".join(entry.provides) or "-",
              ", ".join(entry.conflicts) or "-", entry.health_check or "-") for entry in catalog.taskservs]
    return render_table(rows)


def _requirement(requirement: Requirement) -> str:
    return requirement.name + (str(requirement.version) if requirement.version else "")


def _health_check(check: HealthCheck | None) -> str | None:
    if check is None:
        return None
    if check.port is not None:
        return f"port {check.port}"
    if check.url is not None:
        return f"url {check.url}"
    return f"command {check.command}"
