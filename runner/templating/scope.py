"""A mapping of variables whose values are templates to be rendered against that same mapping.

``hostvars['web1'].url`` must render ``url`` with web1's variables, not with the current host's. Variable stores
(``runner.vars``) subclass ``VariableScope``; when a template reads an item of one, the templar renders the raw
value in that scope instead of returning the raw template text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class VariableScope(Mapping[str, Any]):
    """Marker base class: raw (untemplated) variables of one host or context."""
