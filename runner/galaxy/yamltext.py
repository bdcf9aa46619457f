"""YAML as the galaxy files are written (lock file, install records, ``role info``): keys in the order given,
block style, no line wrapping (a digest stays on one line)."""

from __future__ import annotations

import io
from typing import Any

from ruamel.yaml import YAML


def to_yaml(data: Any) -> str:
    yaml = YAML()
    yaml.width = 4096
    yaml.default_flow_style = False
    stream = io.StringIO()
    yaml.dump(data, stream)
    return stream.getvalue()
