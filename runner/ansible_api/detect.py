"""Is a module file written against Ansible's Python API? Its imports say so: ``ansible.module_utils`` or a
collection's ``module_utils`` (``ansible_collections.NS.COLL.plugins.module_utils``, or ``..module_utils``
relatively inside a collection)."""

from __future__ import annotations

import ast

ANSIBLE_PREFIXES = ("ansible.module_utils", "ansible_collections.")


def imported_names(tree: ast.AST) -> list[tuple[str, int, tuple[str, ...]]]:
    """Every ``import``/``from ... import`` of ``tree``: (module, relative level, names imported from it)."""
    found: list[tuple[str, int, tuple[str, ...]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, 0, ()) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.append((node.module or "", node.level, tuple(alias.name for alias in node.names)))
    return found


def uses_ansible_api(source: bytes) -> bool:
    """True when ``source`` imports Ansible's module_utils. A file that does not parse is not one (the native
    loader reports its syntax error)."""
    if b"module_utils" not in source:  # cheap: most files are native modules
        return False
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    for module, level, _ in imported_names(tree):
        if level and (module == "module_utils" or module.startswith("module_utils.")):
            return True
        if not level and (module == "ansible.module_utils" or module.startswith(ANSIBLE_PREFIXES)):
            return True
    return False
