"""Documentation written as Ansible writes it, for ``provisioning-doc``: the ``DOCUMENTATION``, ``EXAMPLES`` and
``RETURN`` YAML strings of a module or plugin file, read without importing the file (an Ansible-API module, a
cache or lookup plugin), and where a plugin of a type (``-t cache``) is found.

A plugin ``NAME`` of type ``TYPE`` (its ``NAME.py``, or the ``NAME.yml`` a filter or test is documented in) is
looked for as ansible-doc looks: in ``TYPE_plugins/`` beside the playbook (``--playbook-dir``), in the configured
``TYPE_plugins`` folders (``ANSIBLE_TYPE_PLUGINS``), then among the installed ansible-core's own
(``ansible.builtin.NAME``); ``NS.COLL.NAME`` in the collections path.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from runner.ansible_api.collections import collection_dir, split_fqcn
from runner.ansible_api.core import installed_ansible_core
from runner.cli.project import deprecated
from runner.errors import OptionError, SourcePosition

DOC_NAMES = ("DOCUMENTATION", "EXAMPLES", "RETURN")
YAML_SUFFIXES = (".yml", ".yaml")
BUILTIN_PREFIXES = ("ansible.builtin.", "ansible.legacy.")
# ansible-doc's -t choices (ansible-core 2.19) that name a plugin folder (its role and keyword pages aside);
# modules are the default type
PLUGIN_TYPES = (
    "become",
    "cache",
    "callback",
    "cliconf",
    "connection",
    "httpapi",
    "inventory",
    "lookup",
    "netconf",
    "shell",
    "vars",
    "module",
    "strategy",
    "test",
    "filter",
)


def doc_strings(path: Path) -> dict[str, str]:
    """The file's top-level ``DOCUMENTATION``/``EXAMPLES``/``RETURN`` string constants, by name; for a YAML
    documentation file (a filter's or test's ``NAME.yml``), its keys of those names, as YAML text."""
    if path.suffix in YAML_SUFFIXES:
        data = yaml_doc(path, "the documentation file", path.read_text(encoding="utf-8"))
        return {
            name: value if isinstance(value, str) else yaml.safe_dump(value)
            for name, value in data.items()
            if name in DOC_NAMES and value is not None
        }
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (OSError, SyntaxError, ValueError) as exc:
        raise OptionError(f"cannot read the documentation of {path}: {exc}") from None
    return {name: text for name, text in string_constants(tree.body).items() if name in DOC_NAMES}


def string_constants(body: Iterable[ast.stmt]) -> dict[str, str]:
    """The ``NAME = "text"`` assignments among ``body``'s statements (a module's or a class's), by name."""
    found: dict[str, str] = {}
    for node in body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            found[node.targets[0].id] = node.value.value
    return found


def yaml_doc(path: Path, name: str, text: str | None) -> dict[str, Any]:
    """One of the file's strings read as the YAML mapping it holds (empty when it is absent or empty)."""
    if not text or not text.strip():
        return {}
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise OptionError(
            f"{name} of {path} is not valid YAML: {getattr(exc, 'problem', None) or exc}",
            SourcePosition(str(path), mark.line + 1 if mark else None),
        ) from None
    return data if isinstance(data, dict) else {}


def configured_plugin_dirs(kind: str, env: Mapping[str, str]) -> list[Path]:
    """The folders ``ANSIBLE_<TYPE>_PLUGINS`` names (colon-separated), as ansible-core's configuration has them."""
    value = env.get(f"ANSIBLE_{kind.upper()}_PLUGINS", "")
    return [Path(os.path.expanduser(part)) for part in value.split(os.pathsep) if part]


def find_plugin_file(
    kind: str, name: str, playbook_dir: Path | None, collections_paths: Iterable[Path], env: Mapping[str, str]
) -> Path | None:
    """The file of plugin ``name`` of type ``kind``, found as ansible-doc finds it; None when there is none."""
    short = name
    for prefix in BUILTIN_PREFIXES:
        short = short.removeprefix(prefix)
    if short == name and split_fqcn(name) is not None:
        collection, plugin = split_fqcn(name) or ("", "")
        base = collection_dir(collection, collections_paths)
        if base is None:
            return None
        return _first_file([base / "plugins" / kind], plugin.replace(".", "/"))
    legacy = not name.startswith("ansible.builtin.")  # ansible.legacy.NAME and NAME: the local folders first
    folders = [
        *([playbook_dir / f"{kind}_plugins"] if playbook_dir is not None and legacy else []),
        *(configured_plugin_dirs(kind, env) if legacy else []),
    ]
    core = installed_ansible_core()
    if core is not None:
        folders.append(core / "plugins" / kind)
    found = _first_file(folders, short, (".py",))
    if found is None and not short.startswith("_"):
        # ansible-core's older way to deprecate a plugin: its file is named _NAME.py, and NAME still finds it
        found = _first_file(folders, f"_{short}", (".py",))
        if found is not None:
            alias = f"_{short}"
            deprecated(f"Plugin {short!r} automatically redirected to {alias!r}. This feature will be removed from "
                       f"ansible-core version 2.23. Use {alias!r} instead of {short!r} to refer to the plugin.")
    return found or _first_file(folders, short, YAML_SUFFIXES)


def _first_file(folders: Iterable[Path], stem: str, suffixes: Iterable[str] = (".py", *YAML_SUFFIXES)) -> Path | None:
    """The first ``STEM.py``, or the ``STEM.yml`` a filter or test is documented in, among ``folders``, as an
    absolute path (a page's header shows it)."""
    for folder in folders:
        for suffix in suffixes:
            path = folder / f"{stem}{suffix}"
            if path.is_file():
                return Path(os.path.abspath(path))
    return None


def adjacent_doc_file(path: Path, name: str) -> Path | None:
    """The YAML file beside a plugin's code that documents it (named after the plugin, not the code's file; a
    plugin found under its deprecated ``_NAME`` is documented by ``NAME.yml``)."""
    base = name.rsplit(".", 1)[-1]
    for stem in dict.fromkeys((base, base.lstrip("_"))):
        for suffix in YAML_SUFFIXES:
            candidate = path.with_name(stem + suffix)
            if candidate.is_file():
                return candidate
    return None
