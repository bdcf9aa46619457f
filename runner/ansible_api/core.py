"""Where the installed ansible-core is: found, not imported (its own ``__init__`` loads much of the controller)."""

from __future__ import annotations

import ast
import importlib.util
import re
from functools import cache
from pathlib import Path

from runner.errors import UserError

INSTALL_HINT = ("install it into provisioning's environment: pip install 'provisioning[ansible]' or pip install "
                "ansible-core; it is the user's install, never shipped with provisioning")


@cache
def _find() -> Path | None:
    try:
        spec = importlib.util.find_spec("ansible")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        if (Path(location) / "module_utils" / "basic.py").is_file():
            return Path(location)
    return None


def installed_ansible_core() -> Path | None:
    """The ``ansible`` package directory of the installed ansible-core, or None when it is not installed."""
    return _find()


def ansible_core_dir(needed_by: str) -> Path:
    """The ``ansible`` package directory of the installed ansible-core; a UserError saying what to install when
    there is none."""
    found = _find()
    if found is None:
        raise UserError(f"{needed_by} is written against Ansible's Python API (ansible.module_utils), which needs "
                        "ansible-core on the controller", hint=INSTALL_HINT)
    return found


@cache
def ansible_core_version() -> str:
    """The installed ansible-core's version, read from its ``release.py`` (``_ansible_version`` for modules)."""
    found = _find()
    if found is None:
        return "0.0"
    match = re.search(r"^__version__\s*=\s*['\"]([^'\"]+)['\"]", (found / "release.py").read_text(), re.M)
    return match[1] if match else "0.0"


@cache
def pass_vars() -> frozenset[str]:
    """The ``_ansible_*`` keys the installed ansible-core's AnsibleModule accepts (``PASS_VARS`` in its
    ``module_utils/common/parameters.py``, read without importing it): they differ between versions (2.19 dropped
    ``string_conversion_action`` and rejects it), and an unknown one fails the module."""
    found = _find()
    if found is None:
        return frozenset()
    tree = ast.parse((found / "module_utils" / "common" / "parameters.py").read_bytes())
    for node in ast.walk(tree):
        targets: list[ast.expr]
        if isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "PASS_VARS" for t in targets) and isinstance(value, ast.Dict):
            return frozenset(key.value for key in value.keys
                             if isinstance(key, ast.Constant) and isinstance(key.value, str))
    return frozenset()


def installed() -> bool:
    """True when ansible-core is importable on the controller (found without importing it)."""
    return _find() is not None
