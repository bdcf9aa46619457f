"""A golden image's build spec: the platform's ``GoldenImageConfig`` (its name, its taskservs, pins and
exclusions), plus the version to record and the temporary server to build it on.

```yaml
# provisioning: image
name: web-db
version: 1.0.0                 # default: the newest recorded version's next patch, else 1.0.0
taskservs: [nginx, postgres]
build: {provider: local, address: 127.0.0.95}      # the temporary server: an infra server's settings
providers: {local: {base_address: 90}}             # as an infra's providers:
```

``build_infra`` turns it into an infra of one server, ``<name>-build`` in infra ``image-<name>``, so the image is
built by the same plays (and checked by the same rules) as any server of an infra.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field

from runner.errors import ParseError, SourcePosition
from runner.infra.loader import read_infra
from runner.infra.models import Infra
from runner.loader.yaml import load_yaml_file
from runner.models.validation import validate
from runner.platform_specs.golden_image import GoldenImageConfig

BUILD_SUFFIX = "-build"
INFRA_PREFIX = "image-"


class GoldenImageSpec(GoldenImageConfig):
    """What ``provisioning-infra image build`` reads."""

    KIND = "golden image spec"

    version: str | None = Field(None, description="The version to record (default: the next patch version)")
    build: dict[str, Any] = Field(description="The temporary server to build on: an infra server's settings, "
                                              "'provider' included (its hostname is NAME-build)")
    providers: dict[str, Any] | None = Field(None, description="How to reach the providers, as in an infra")

    def wanted_taskservs(self) -> list[str]:
        """The taskservs to install: ``taskservs`` without ``exclude_taskservs``."""
        excluded = set(self.exclude_taskservs or [])
        return [name for name in self.taskservs or [] if name not in excluded]


def load_image_spec(path: Path) -> tuple[GoldenImageSpec, Mapping[str, Any]]:
    """The spec in ``path`` and the mapping it was read from; every problem at its file:line:col."""
    data = load_yaml_file(path)
    where = SourcePosition(str(path), 1, 1)
    if not isinstance(data, Mapping):
        raise ParseError("a golden image spec must be a mapping with 'name', 'taskservs' and 'build'", where)
    return validate(GoldenImageSpec, data, where=where), data


def build_infra(spec: GoldenImageSpec, data: Mapping[str, Any], path: Path) -> Infra:
    """The infra of the build server (``build`` with the spec's taskservs), read like an infra file so a bad
    setting is reported where the spec wrote it."""
    server = copy.copy(data["build"])  # a copy keeps the positions the loader attached to the mapping
    for key in ("hostname", "taskservs"):
        if key in server:
            raise ParseError(f"'build' cannot set '{key}': the build server is {spec.name}{BUILD_SUFFIX} and gets "
                             "the image's taskservs", SourcePosition(str(path), 1, 1))
    server["hostname"] = spec.name + BUILD_SUFFIX
    server["taskservs"] = spec.wanted_taskservs()
    infra = {"name": INFRA_PREFIX + spec.name, "providers": data.get("providers") or {}, "servers": [server]}
    return read_infra(path, infra)
