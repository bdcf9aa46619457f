"""Writing small taskserv roles for the taskserv unit tests (not a test file)."""

from __future__ import annotations

from pathlib import Path

from runner.taskservs.catalog import TaskservCatalog


def write_role(roles: Path, name: str, section: str | None = None, tasks: str = "- debug: {msg: hi}\n") -> Path:
    """A role ``name`` under ``roles`` whose meta/main.yml holds ``section`` (YAML under ``taskserv:``)."""
    role = roles / name
    (role / "tasks").mkdir(parents=True, exist_ok=True)
    (role / "tasks" / "main.yml").write_text(tasks)
    (role / "meta").mkdir(exist_ok=True)
    body = "dependencies: []\n"
    if section is not None:
        body += "taskserv:\n" + "".join(f"  {line}\n" for line in section.strip().splitlines())
    (role / "meta" / "main.yml").write_text(body)
    return role


def catalog_of(roles: Path, sections: dict[str, str | None]) -> TaskservCatalog:
    """Roles named by ``sections`` (name -> taskserv section) and a catalog over them."""
    for name, section in sections.items():
        write_role(roles, name, section)
    return TaskservCatalog([roles], roles.parent)
