"""Reading infra files: ``load_infra(path)``, and telling an infra file from a YAML inventory.

An infra file is recognised by a top-level ``servers:`` that is a list (a YAML inventory's groups are
mappings, never lists), or by a first line ``# provisioning: infra``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.errors import ParseError, SourcePosition
from runner.infra.models import Infra
from runner.loader.yaml import load_yaml_file
from runner.models.validation import validate
from runner.secrets.encrypted import reveal

MARKER = "# provisioning: infra"


def load_infra(path: str | Path) -> Infra:
    """The infra in ``path``, defaults merged; every problem raised together (``ParseErrors``)."""
    return read_infra(Path(path), load_yaml_file(path))


def read_infra(path: Path, data: Any) -> Infra:
    """An infra from YAML ``data`` already read from ``path``."""
    if not isinstance(data, Mapping):
        raise ParseError("an infra file must be a mapping with 'servers' (and 'name', 'defaults', 'clusters')",
                         SourcePosition(str(path), 1, 1))
    # Inline vault values (provider credentials) are needed to build the infra: decrypted now, before any host
    # is touched; a wrong password stops here with the value's file:line:col.
    return validate(Infra, reveal(data), where=SourcePosition(str(path), 1, 1))


def is_infra(path: Path, data: Any) -> bool:
    if isinstance(data, Mapping) and isinstance(data.get("servers"), list):
        return True
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.readline().strip() == MARKER
    except OSError:
        return False
