"""Pack a module written against Ansible's API with the ``module_utils`` it imports, as ansible-core's module
packer (AnsiballZ) does: an AST walk of the module's imports, recursively through every file it ships.

The result is one zip the agent puts on ``sys.path`` in the child that runs the module:

- the module itself as ``ansible/modules/NAME.py`` (a ``library/`` module) or at its collection's place
  (``ansible_collections/NS/COLL/plugins/modules/NAME.py``, so its relative imports work);
- ``ansible.module_utils.X`` from the project's ``module_utils/`` directories first (Ansible merges them into
  that namespace), then the installed ansible-core's;
- ``ansible_collections.NS.COLL.plugins.module_utils.X`` from the collections path;
- every package above a shipped file: its own ``__init__.py`` where it has one, else an empty one
  (``ansible/__init__.py`` is always empty: the controller's imports the whole of ansible-core).

The zip's entries are sorted and dated 1980-01-01, so the same sources pack to the same bytes and sha256, which is
what the agent caches by.
"""

from __future__ import annotations

import ast
import hashlib
import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from runner.ansible_api.core import ansible_core_dir
from runner.ansible_api.detect import imported_names
from runner.errors import UserError

_EPOCH = (1980, 1, 1, 0, 0, 0)
# Always shipped, as ansible-core's packer does: what runs the module (2.19's loader and the JSON profiles of the
# module's serialization profile, both ways), and basic, which every AnsibleModule needs.
_ALWAYS = (
    "ansible.module_utils.basic",
    "ansible.module_utils._internal._ansiballz._loader",
)
_PROFILE_MODULES = "ansible.module_utils._internal._json._profiles._module_{profile}_{direction}"


@dataclass(frozen=True)
class PackedModule:
    fqn: str  # the dotted name the child runs as __main__
    data: bytes
    digest: str
    files: tuple[str, ...]  # the zip's entries, for the trace and tests


@dataclass
class _Walk:
    module_utils_dirs: list[Path]
    collections_paths: list[Path]
    core: Path
    files: dict[str, bytes] = field(default_factory=dict)  # arcname -> content
    seen: set[str] = field(default_factory=set)  # dotted names looked at

    def locate(self, dotted: str) -> tuple[Path, bool] | None:
        """The file of a dotted module name and whether it is a package, or None where it is not found."""
        parts = dotted.split(".")
        if parts[:2] == ["ansible", "module_utils"]:
            roots = [*self.module_utils_dirs, self.core / "module_utils"]
            rest = parts[2:]
        elif parts[0] == "ansible_collections" and len(parts) > 3:
            roots = [base / "ansible_collections" / parts[1] / parts[2] for base in self.collections_paths]
            rest = parts[3:]
        else:
            return None
        for root in roots:
            target = root.joinpath(*rest) if rest else root
            if target.with_suffix(".py").is_file() and rest:
                return target.with_suffix(".py"), False
            if (target / "__init__.py").is_file():
                return target / "__init__.py", True
        return None

    def add(self, dotted: str, optional: bool, origin: str) -> None:
        if dotted in self.seen:
            return
        self.seen.add(dotted)
        found = self.locate(dotted)
        shipped = dotted
        while found is None and shipped.count(".") > 2:
            # ``six.moves.x``: the rest of the name is made at run time by the longest part that is a file
            shipped = shipped.rsplit(".", 1)[0]
            found = self.locate(shipped)
        if found is None:
            if optional:
                return
            raise UserError(f"Could not find imported module support code for {origin}: {dotted}",
                            hint="is ansible-core installed, and the collection in the collections path?")
        if shipped != dotted:
            self.add(shipped, optional, origin)
            return
        path, is_package = found
        arcname = dotted.replace(".", "/") + ("/__init__.py" if is_package else ".py")
        self.add_parents(dotted.rsplit(".", 1)[0])
        self.add_file(arcname, path.read_bytes(), dotted if is_package else dotted.rsplit(".", 1)[0], dotted)

    def add_parents(self, package: str) -> None:
        """``__init__.py`` of ``package`` and every package above it."""
        parts = package.split(".")
        for end in range(1, len(parts) + 1):
            dotted = ".".join(parts[:end])
            arcname = dotted.replace(".", "/") + "/__init__.py"
            if arcname in self.files:
                continue
            found = self.locate(dotted) if end >= 2 and dotted != "ansible_collections" else None
            if found is not None and found[1] and dotted.count(".") >= 1:
                self.seen.add(dotted)
                self.add_file(arcname, found[0].read_bytes(), dotted, dotted)
            else:
                self.files[arcname] = b""

    def add_file(self, arcname: str, source: bytes, package: str, origin: str) -> None:
        self.files[arcname] = source
        try:
            tree = ast.parse(source, filename=origin)
        except SyntaxError as exc:
            raise UserError(f"{origin} does not parse: {exc.msg} (line {exc.lineno})") from None
        optional = _optional_import_lines(tree)
        for node_line, (module, level, names) in _imports_with_lines(tree):
            absolute = _absolute(module, level, package)
            if absolute is None or not absolute.startswith(("ansible.module_utils", "ansible_collections.")):
                continue
            self.add_import(absolute, names, node_line in optional, origin)

    def add_import(self, absolute: str, names: Iterable[str], optional: bool, origin: str) -> None:
        # ``from a.b import c``: c is a submodule when it has a file, else a name of a.b (ambiguous as in Ansible)
        rest = [name for name in names if name != "*" and self.locate(f"{absolute}.{name}") is None]
        for name in names:
            if name != "*" and name not in rest:
                self.add(f"{absolute}.{name}", optional, origin)
        if rest or not names or "*" in names:
            self.add(absolute, optional, origin)


def _imports_with_lines(tree: ast.AST) -> list[tuple[int, tuple[str, int, tuple[str, ...]]]]:
    result = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for entry in imported_names(node):
                result.append((node.lineno, entry))
    return result


def _optional_import_lines(tree: ast.AST) -> set[int]:
    """Lines of imports inside a ``try`` body: optional, as in ansible-core (a missing one is the module's
    business, usually a HAS_X flag)."""
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try):
            for child in node.body:
                for inner in ast.walk(child):
                    if isinstance(inner, (ast.Import, ast.ImportFrom)):
                        lines.add(inner.lineno)
    return lines


def _absolute(module: str, level: int, package: str) -> str | None:
    if not level:
        return module
    base = package.split(".")
    if level - 1 > len(base) - 1:
        return None
    base = base[:len(base) - (level - 1)]
    return ".".join([*base, module]) if module else ".".join(base)


def module_fqn(name: str, collection: str | None) -> str:
    if collection:
        namespace, coll = collection.split(".")
        return f"ansible_collections.{namespace}.{coll}.plugins.modules.{name}"
    return f"ansible.modules.{name}"


def pack(path: Path, name: str, *, collection: str | None, module_utils_dirs: Iterable[Path],
         collections_paths: Iterable[Path], profile: str = "legacy") -> PackedModule:
    """Pack the module at ``path`` (``name``, from ``collection`` NS.COLL or a library directory), to run with
    serialization ``profile``."""
    walk = _Walk(list(module_utils_dirs), list(collections_paths), ansible_core_dir(f"the module {name}"))
    fqn = module_fqn(name, collection)
    walk.add_parents(fqn.rsplit(".", 1)[0])
    walk.add_file(fqn.replace(".", "/") + ".py", path.read_bytes(), fqn.rsplit(".", 1)[0], str(path))
    profile_modules = (_PROFILE_MODULES.format(profile=profile, direction=way) for way in ("c2m", "m2c"))
    for dotted in (*_ALWAYS, *profile_modules):
        walk.add(dotted, optional=True, origin=str(path))
    walk.files["ansible/__init__.py"] = b""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for arcname in sorted(walk.files):
            info = zipfile.ZipInfo(arcname, _EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, walk.files[arcname])
    data = buffer.getvalue()
    return PackedModule(fqn, data, hashlib.sha256(data).hexdigest(), tuple(sorted(walk.files)))
