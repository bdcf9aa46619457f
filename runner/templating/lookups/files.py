"""Lookups that read the controller's files: ``file``, ``unvault``, ``template``, ``first_found``, ``fileglob``."""

from __future__ import annotations

import glob
import os
import re
from collections import ChainMap
from collections.abc import Callable, Mapping
from typing import Any

import jinja2

from runner.errors import UserError
from runner.loader.yaml import read_text_decrypted
from runner.templating.errors import TemplateError
from runner.templating.filters.core import to_bool
from runner.templating.lookups.base import LookupContext, listify, taking_undefined_terms

_TEMPLATE_SYNTAX_OPTIONS = ("variable_start_string", "variable_end_string", "comment_start_string",
                            "comment_end_string", "block_start_string", "block_end_string")


def file_lookup(terms: list[Any], context: LookupContext, lstrip: bool = False, rstrip: bool = True) -> list[str]:
    contents = []
    for term in terms:
        text = _read_decrypted(str(term), context, "file")
        text = text.lstrip() if lstrip else text
        contents.append(text.rstrip() if rstrip else text)
    return contents


def unvault_lookup(terms: list[Any], context: LookupContext) -> list[str]:
    """Each term's file as it is, decrypted when it is a vault: ``file`` without its stripping, as Ansible's."""
    return [_read_decrypted(str(term), context, "unvault") for term in terms]


def _read_decrypted(name: str, context: LookupContext, lookup: str) -> str:
    path = context.require_file(name, lookup, "files")
    try:
        return read_text_decrypted(path)  # vault- and age-encrypted files are decrypted, as Ansible does
    except (OSError, UnicodeDecodeError) as exc:
        raise TemplateError(f"lookup '{lookup}': cannot read {path}: {exc}") from None
    except UserError as exc:  # a wrong password: the lookup fails with the reason
        raise TemplateError(f"lookup '{lookup}': {exc.message}") from None


def template_lookup(terms: list[Any], context: LookupContext, template_vars: Mapping[str, Any] | None = None,
                    convert_data: bool = True, jinja2_native: bool = False, trim_blocks: bool = True,
                    **syntax: str) -> list[str]:
    """Each term a template file (in ``templates/``), rendered to text with the current variables plus
    ``template_vars``; ``trim_blocks`` as Jinja2's (on, as Ansible has it). ``convert_data`` and ``jinja2_native``
    are accepted for compatibility; the result is text."""
    unknown = set(syntax) - set(_TEMPLATE_SYNTAX_OPTIONS)
    if unknown:
        raise TemplateError(f"lookup 'template': unknown option(s) {', '.join(sorted(unknown))}")
    # Read only: ChainMap's stubs want every map mutable, though writes only ever go to the first.
    variables = (ChainMap(dict(template_vars), context.variables)  # type: ignore[arg-type]
                 if template_vars else context.variables)
    rendered = []
    for term in terms:
        path = context.require_file(str(term), "template", "templates")
        search_paths = (path.parent, *context.search_paths)
        rendered.append(context.templar.template_file(path, variables, search_paths=search_paths,
                                                      trim_blocks=bool(to_bool(trim_blocks)), **syntax))
    return rendered


def _split(value: Any, separators: str) -> list[str]:
    names: list[str] = []
    for item in listify(value):
        names.extend(part for part in re.split(f"[{re.escape(separators)}]", str(item)) if part)
    return names


def _candidates(term: Any, files: Any, paths: Any) -> list[str]:
    if isinstance(term, Mapping):
        names = _split(term.get("files", files or []), ",;")
        folders = _split(term.get("paths", paths or []), ",:;")
    elif isinstance(term, (list, tuple)):
        return [candidate for item in term for candidate in _candidates(item, files, paths)]
    elif isinstance(term, str):
        names, folders = _split(term, ",;"), _split(paths or [], ",:;")
    elif isinstance(term, jinja2.Undefined):
        term._fail_with_undefined_error()  # undefined, as Ansible reports it (and a vars_files entry waits for hosts)
    else:
        raise TemplateError(f"Invalid term supplied. A string, dict or list is required, not "
                            f"{type(term).__name__!r}.")
    return [os.path.join(folder, name) for folder in folders for name in names] if folders else names


@taking_undefined_terms
def first_found(terms: list[Any], context: LookupContext, files: Any = None, paths: Any = None,
                skip: bool = False) -> list[str]:
    """The first file that exists among the candidates (each name in each of ``paths``, or each name alone in
    the search paths); none found is an error unless ``skip``, which gives an empty list (so a
    ``with_first_found`` loop runs no item)."""
    sources = list(terms) or [{"files": files, "paths": paths}]
    candidates = _candidates(sources, files, paths)
    skip = skip or any(isinstance(term, Mapping) and bool(term.get("skip")) for term in sources)
    for candidate in candidates:
        found = context.find_file(candidate)
        if found is not None:
            return [str(found)]
    if skip:
        return []
    searched = ", ".join(str(path) for path in context.search_paths) or "no search paths"
    raise TemplateError(f"No file was found when using first_found: none of {', '.join(candidates) or '(none)'}"
                        f" (searched {searched})")


def fileglob(terms: list[Any], context: LookupContext) -> list[str]:
    """Files (not folders) matching each pattern; a relative pattern is matched in the first search folder
    (``files/`` first) where it matches anything."""
    matches: list[str] = []
    for term in terms:
        pattern = os.path.expanduser(str(term))
        folder, name = os.path.split(pattern)
        if os.path.isabs(pattern):
            folders = [folder]
        else:
            folders = []
            for base in context.search_paths:
                folders += [str(base / context.subdir / folder), str(base / folder)]
        for candidate in folders:
            found = sorted(path for path in glob.glob(os.path.join(candidate, name)) if os.path.isfile(path))
            if found:
                matches.extend(found)
                break
    return matches


LOOKUPS: dict[str, Callable[..., list[Any]]] = {
    "file": file_lookup, "unvault": unvault_lookup, "template": template_lookup, "first_found": first_found,
    "fileglob": fileglob,
}
