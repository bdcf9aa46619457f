"""``provisioning-doc``: a module's documentation from its own file (like ansible-doc).

``provisioning-doc MODULE`` prints the description, the options (type, default, choices, aliases, required),
the examples and the return values; ``--list`` names every module with its short description; ``-s`` prints a
task snippet to start from. Modules come from the configured ``library`` directories, then the shipped ones; the
actions of the language itself (``include_tasks``, ``import_role``, ...) have pages of their own
(``runner.cli.language_pages``), so every ansible.builtin name has one.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click

from runner.ansible_api.collections import collection_search_path, split_fqcn
from runner.ansible_api.core import installed_ansible_core
from runner.cli.common import report_errors
from runner.cli.doc_fragments import add_collection_to_versions, add_fragments
from runner.cli.doc_keywords import keyword_descriptions, keyword_docs
from runner.cli.doc_list import (
    BUILTIN,
    Listed,
    check_collection_filters,
    description,
    jinja_builtins,
    list_lines,
    list_plugins,
    plugin_sources,
)
from runner.cli.doc_roles import Roles, available_roles_lines, role_text, roles_search_path
from runner.cli.doc_sources import PLUGIN_TYPES, adjacent_doc_file, doc_strings, find_plugin_file, yaml_doc
from runner.cli.doc_text import columns, dump_yaml, man_text, tty_ify
from runner.cli.language_pages import LANGUAGE_ACTIONS, language_page
from runner.cli.project import warn
from runner.config import Config, load_config
from runner.config.model import DEFAULT
from runner.errors import OptionError, UserError
from runner.module_index import ModuleIndex, ModuleInfo


def _paragraphs(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value)]


@dataclass(frozen=True)
class Page:
    """What provisioning-doc shows of a module or a language action."""

    name: str
    origin: str  # where it is documented, shown in the page's first line
    documentation: Mapping[str, Any]
    examples: str | None = ""  # None: the file has no EXAMPLES
    returns: Mapping[str, Any] | None = field(default_factory=dict)  # None: the file documents no return values
    notes: tuple[str, ...] = ()
    collection: str | None = None  # NS.COLL of a collection's module or plugin (its deprecations name it)
    has_action: bool = False  # a module with an action that runs on the controller (ansible-doc notes it)


def module_page(info: ModuleInfo, shown_name: str | None = None, collections_paths: list[Path] | None = None) -> Page:
    """The page of a module; ``shown_name`` is the name its header gives (ansible.builtin.NAME of a shipped one)."""
    name = shown_name or info.name
    has_action = info.action is not None or info.action_plugin is not None
    if not info.documentation and (info.ansible_api or info.legacy_style):
        # written as Ansible writes modules: YAML strings, read from the file (such a module is never imported)
        page = file_page(name, info.path, collections_paths or [], "module", info.collection, tuple(_where(info)))
        return replace(page, has_action=has_action)
    return Page(name, os.path.abspath(info.path), info.documentation, str(getattr(info.python, "EXAMPLES", "") or ""),
                getattr(info.python, "RETURN", None) or {}, tuple(_where(info)), has_action=has_action)


def file_page(name: str, path: Path, collections_paths: list[Path], plugin_type: str, collection: str | None,
              notes: tuple[str, ...] = ()) -> Page:
    """The page of a module or plugin file documented as Ansible documents them (YAML in strings), with the
    collection named beside its versions and its documentation fragments merged in, as ansible-core loads it."""
    strings = doc_strings(path)
    adjacent = adjacent_doc_file(path, name) if "DOCUMENTATION" not in strings else None
    if adjacent is not None:  # code without documentation, documented in the YAML file beside it
        path, strings = adjacent, doc_strings(adjacent)
    if "DOCUMENTATION" not in strings:
        raise UserError(f"No documentation available for {plugin_type} plugin {name!r} in {str(path)!r}.")
    documentation = yaml_doc(path, "DOCUMENTATION", strings.get("DOCUMENTATION"))
    returns = yaml_doc(path, "RETURN", strings.get("RETURN")) or None
    is_module = plugin_type == "module"
    # versions name their collection: ansible-core's own plugins ansible.builtin, local ones none ('')
    core = installed_ansible_core()
    owner = collection or (BUILTIN if core is not None and Path(path).is_relative_to(core) else "")
    add_collection_to_versions(documentation, owner, is_module=is_module)
    if returns is not None:
        add_collection_to_versions(returns, owner, is_module=is_module, return_docs=True)
    add_fragments(documentation, path, collections_paths, is_module=is_module)
    if returns is not None:
        add_fragments(returns, path, collections_paths, is_module=is_module, section="RETURN")
    return Page(name, os.path.abspath(path), documentation, strings.get("EXAMPLES"), returns, notes,
                collection=collection)


class NotFound(UserError):
    """A name no module or plugin answers to: like ansible-doc, provisioning-doc warns and goes on."""


def find_page(index: ModuleIndex, name: str) -> Page:
    """The page of module ``name``, or of the language action of that name (ansible.builtin. prefix or not)."""
    page = language_page(name.removeprefix("ansible.builtin.").removeprefix("ansible.legacy."))
    if page is None:
        info = index.find(name)
        if info is None:
            unresolved = index.unresolved(name)
            raise NotFound(f"{name} was not found", hint=f"{unresolved.message}; {unresolved.hint}")
        shipped = info.path.parent == index.shipped and info.collection is None
        return module_page(info, f"ansible.builtin.{info.name}" if shipped else name, index.collections_paths)
    short = page.__name__.rsplit(".", 1)[-1]
    return Page(f"ansible.builtin.{short}", str(page.__file__), page.DOCUMENTATION, page.EXAMPLES, page.RETURN,
                ("Carried out by the compiler and the executor: no module runs on the host.",), has_action=True)


def short_description(page: Page) -> str:
    return str(page.documentation.get("short_description") or "").strip()


def listing(plugin_type: str, filters: tuple[str, ...], index: ModuleIndex, library: list[Path],
            playbook_dir: Path | None, files: bool) -> dict[str, str]:
    """``NAME: short description`` (``NAME: file`` with ``files``) of every module or plugin of the type in the
    collections ``filters`` names (all when none; ansible-core's internal ``ansible._protomatter`` only when
    named)."""
    sources = plugin_sources(
        plugin_type, shipped_modules=index.shipped, library=library, playbook_dir=playbook_dir,
        collections_paths=index.collections_paths, env=os.environ,
        language_pages={name: Path(str(getattr(language_page(name), "__file__", ""))) for name in LANGUAGE_ACTIONS})
    plugins = list_plugins(plugin_type, sources, check_collection_filters(filters) if filters else None)
    if not filters:
        plugins = {name: listed for name, listed in plugins.items() if not name.startswith("ansible._protomatter.")}
    if files:
        return {name: str(listed.path) for name, listed in plugins.items()}

    def describe(listed: Listed) -> str:
        if plugin_type == "module" and listed.name.startswith(f"{BUILTIN}."):  # documented the project's own way
            return short_description(find_page(index, listed.name)) or "UNDOCUMENTED"
        return description(listed)

    return {name: describe(listed) for name, listed in plugins.items()}


def _where(info: ModuleInfo) -> list[str]:
    module = info.python
    notes = []
    if info.action:
        from runner.actions import ACTIONS

        action = ACTIONS.get(info.action)
        notes.append("Runs on the controller" + (" and sends its work to the host."
                                                 if action is None or action.uses_host else "."))
    if info.free_form:
        notes.append("Takes free-form text (module: text), read as its free_form option.")
    if not getattr(module, "SUPPORTS_CHECK_MODE", True):
        notes.append("Does not support check mode: it is skipped there.")
    return notes


def document_text(page: Page, plugin_type: str = "module", verbosity: int = 0) -> str:
    """The whole page of a module or plugin, as ansible-doc prints it; our notes on how a module runs join the
    documentation's own NOTES."""
    doc = dict(page.documentation)
    if page.notes:
        doc["notes"] = [*(doc.get("notes") or []), *page.notes]
    return man_text(doc, plugin_type=plugin_type, name=page.name, filename=page.origin, examples=page.examples,
                    returns=page.returns, collection=page.collection, has_action=page.has_action,
                    verbosity=verbosity)


def snippet_lines(page: Page) -> list[str]:
    """A task to start from: required options first, each with its description as a comment."""
    options = page.documentation.get("options") or {}
    ordered = sorted(options, key=lambda name: (not options[name].get("required"), name))
    module = page.documentation.get("module") or page.name.rsplit(".", 1)[-1]
    lines = [f"- name: {short_description(page) or page.name}", f"  {module}:"]
    for name in ordered:
        option = options[name]
        summary = " ".join(_paragraphs(option.get("description"))).split(". ")[0].rstrip(".")
        marker = " (required)" if option.get("required") else ""
        lines.append(f"    {name}:{' ' * max(1, 24 - len(name))}# {summary}{marker}")
    return lines


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("-l", "--list", "list_", is_flag=True,
              help="List the modules (or plugins of -t TYPE) with their short descriptions; NAMEs given are "
                   "collections (NS.COLL) to list only.")
@click.option("-F", "--list_files", "list_files", is_flag=True, help="List the modules or plugins with their files.")
@click.option("-j", "--json", "json_format", is_flag=True, help="Print the result as JSON.")
@click.option("-s", "--snippet", is_flag=True, help="Print a task snippet for each MODULE.")
@click.option("-M", "--module-path", "module_paths", multiple=True, type=click.Path(path_type=Path),
              help="Also look for modules in this directory (repeatable; the configured library is always read).")
@click.option("-t", "--type", "plugin_type", type=click.Choice([*PLUGIN_TYPES, "keyword", "role"]), default="module",
              show_default=True,
              help="What NAME is: a module, or a plugin of this type (cache, lookup, callback ...), whose "
                   "documentation is read from its file as Ansible writes it.")
@click.option("--playbook-dir", type=click.Path(path_type=Path),
              help="Where the playbooks would be: its library/ and TYPE_plugins/ folders are searched too.")
@click.option("-v", "--verbose", "verbosity", count=True, help="Also show when each option was added.")
@click.option("-r", "--roles-path", "roles_paths", multiple=True,
              help="With -t role: also look for roles here, first (repeatable, or colon-separated).")
@click.option("-e", "--entry-point", help="With -t role: only this entry point of the role's argument specs.")
@click.option("--metadata-dump", is_flag=True,
              help="Print the documentation of every plugin of every type as JSON (of the collections given).")
@click.option("--no-fail-on-errors", is_flag=True,
              help="With --metadata-dump: a plugin whose documentation cannot be read has its error instead.")
@click.argument("modules", nargs=-1)
@report_errors
def main(list_: bool, list_files: bool, json_format: bool, snippet: bool, module_paths: tuple[Path, ...],
         plugin_type: str, playbook_dir: Path | None,
         verbosity: int, roles_paths: tuple[str, ...], entry_point: str | None, metadata_dump: bool,
         no_fail_on_errors: bool, modules: tuple[str, ...]) -> None:
    """Show the documentation of MODULE (options, examples, return values), or of a plugin with -t TYPE."""
    config = load_config()
    beside = [playbook_dir / "library"] if playbook_dir is not None and (playbook_dir / "library").is_dir() else []
    library = [*module_paths, *beside, *(Path(p) for p in (config.library or []) if Path(p).is_dir())]
    if plugin_type == "keyword":
        show_keywords(modules, list_ or list_files, json_format)
        return
    collections_paths = _collections_paths(config, playbook_dir)
    roles = Roles(roles_search_path([*(Path(p) for given in roles_paths for p in given.split(os.pathsep) if p),
                                     *(Path(p) for p in config.roles_path or [])], playbook_dir),
                  collections_paths, entry_point)
    if plugin_type == "role" and not metadata_dump:
        show_roles(roles, modules, list_ or list_files, json_format, not no_fail_on_errors)
        return
    index = ModuleIndex(library, collections_paths=collections_paths)
    if list_ or list_files:
        entries = listing(plugin_type, modules, index, library, playbook_dir, list_files)
        if json_format:
            click.echo(json.dumps(entries, indent=4, sort_keys=True))
        elif entries:
            click.echo("\n".join(list_lines(entries, columns(), markup=not list_files)))
        return
    if metadata_dump:
        dump = {"all": {kind: metadata(kind, modules, index, library, playbook_dir, not no_fail_on_errors)
                         for kind in (*PLUGIN_TYPES, "keyword")}}
        dump["all"]["role"] = roles.dump(modules, not no_fail_on_errors)
        click.echo(json.dumps(dump, indent=4, sort_keys=True, default=str))
        return
    if not modules:
        raise OptionError("name a MODULE to document, or give --list", hint="provisioning-doc --list")
    loaded = load_pages(plugin_type, modules, index, playbook_dir, fail_on_errors=True)
    found = [page for page in loaded.values() if isinstance(page, Page)]
    if json_format:
        shown = {name: page_json(page, plugin_type) for name, page in loaded.items()
                 if isinstance(page, Page) and page.documentation}
        click.echo(json.dumps(shown, indent=4, sort_keys=True, default=str))
        return
    if snippet:
        click.echo("\n\n".join("\n".join(snippet_lines(page)).rstrip() for page in found))
        return
    pages = []
    for page in found:
        if not page.documentation:  # documentation that is there but empty: nothing to show, as in ansible-doc
            continue
        try:
            pages.append(document_text(page, plugin_type, verbosity))
        except OptionError as exc:
            raise OptionError(f"Unable to retrieve documentation from {page.name!r}: {exc.message}") from None
    click.echo("".join(pages), nl=False)


def load_pages(plugin_type: str, names: Iterable[str], index: ModuleIndex, playbook_dir: Path | None, *,
               fail_on_errors: bool, fail_ok: bool = False) -> dict[str, Page | str]:
    """The page of each name; one that is not found is left out with a warning, one whose documentation cannot be
    read fails (is its error with ``fail_on_errors`` off; a warning with ``fail_ok``), as in ansible-doc."""
    loaded: dict[str, Page | str] = {}
    for name in names:
        try:
            if plugin_type == "module":
                loaded[name] = find_page(index, name)
            else:
                loaded[name] = plugin_page(plugin_type, name, playbook_dir, index.collections_paths)
        except NotFound as missing:
            warn(f"{missing.message} ({missing.hint})")
        except UserError as exc:  # the documentation is there but cannot be read
            problem = "Missing documentation (or could not parse documentation)"
            detail = exc.render(with_excerpt=False).removeprefix("ERROR: ")
            if not fail_on_errors:
                loaded[name] = f"{problem}: {detail}."
            elif fail_ok:
                warn(f"{plugin_type} {name} {problem}: {detail}")
            else:
                raise OptionError(f"{plugin_type} {name} {problem}: {detail}") from None
    return loaded


def page_json(page: Page, plugin_type: str) -> dict[str, Any]:
    """ansible-doc --json's entry of one page: the documentation as read, with its collection, file and name."""
    collection = page.collection or (BUILTIN if page.name.startswith(f"{BUILTIN}.") else "")
    doc = {**page.documentation, "collection": collection, "filename": page.origin, "plugin_name": page.name}
    if plugin_type == "module":
        doc["has_action"] = page.has_action
    return {"doc": doc, "examples": page.examples, "metadata": None, "return": page.returns}


def metadata(kind: str, names: tuple[str, ...], index: ModuleIndex, library: list[Path], playbook_dir: Path | None,
             fail_on_errors: bool) -> dict[str, Any]:
    """--metadata-dump's entry of one type: the documentation of each of its plugins (of the collections named)."""
    if kind == "keyword":
        return keyword_docs(keyword_descriptions(), warn)
    files = listing(kind, names, index, library, playbook_dir, files=True)
    found: dict[str, Any] = {}
    for name, file in files.items():
        try:
            if kind == "module" and name.startswith(f"{BUILTIN}."):  # documented the project's own way
                page = find_page(index, name)
            elif file == "None":  # one of Jinja's own
                page = jinja_page(kind, name.rsplit(".", 1)[-1], jinja_builtins(kind)[name])
            else:  # the file it was listed from (a filter or test file defines several)
                fqcn = split_fqcn(name)
                collection = fqcn[0] if fqcn and not name.startswith("ansible.") else None
                page = file_page(name, Path(file), index.collections_paths, kind, collection)
        except UserError as exc:
            builtin = jinja_builtins(kind).get(name)
            if builtin is not None:  # a Jinja filter or test that ansible-core lists without documenting it
                found[name] = page_json(jinja_page(kind, name.rsplit(".", 1)[-1], builtin), kind)
                continue
            problem = f"Missing documentation (or could not parse documentation): {exc.message}"
            if not fail_on_errors:
                found[name] = {"error": f"{problem}."}
            elif kind in ("filter", "test"):
                warn(f"{kind} {name} {problem}")
            else:
                raise OptionError(f"{kind} {name} {problem}") from None
            continue
        if page.documentation:
            found[name] = page_json(page, kind)
    return found


def show_roles(roles: Roles, names: tuple[str, ...], list_all: bool, json_format: bool,
               fail_on_errors: bool) -> None:
    """ansible-doc -t role: the roles with argument specs (-l, NAMEs are collections), or the pages of those named."""
    if list_all:
        found = roles.listing(check_collection_filters(names) if names else None)
        if json_format:
            click.echo(json.dumps(found, indent=4, sort_keys=True, default=str))
        elif found:
            click.echo("\n".join(available_roles_lines(found, columns())))
        return
    if not names:
        raise OptionError("Missing name(s), incorrect options passed for detailed documentation.")
    docs = roles.docs(names, fail_on_errors)
    if json_format:
        click.echo(json.dumps(docs, indent=4, sort_keys=True, default=str))
        return
    text: list[str] = []
    for name, doc in docs.items():
        if "error" in doc:
            warn(f"Skipping role '{name}' due to: {doc['error']}")
            continue
        try:
            text += role_text(name, doc, columns())
        except OptionError as exc:
            raise OptionError(f"Error extracting role docs from {name!r}: {exc.message}") from None
    if text:
        click.echo("\n".join(text))


def show_keywords(names: tuple[str, ...], list_all: bool, json_format: bool) -> None:
    """ansible-doc -t keyword: every keyword's description (-l), or the documentation of those named, as YAML."""
    if not list_all and not names:
        raise OptionError("Missing name(s), incorrect options passed for detailed documentation.")
    docs: Mapping[str, Any] = keyword_descriptions() if list_all else keyword_docs(names, warn)
    if json_format:
        click.echo(json.dumps(docs, indent=4, sort_keys=True))
    elif docs:
        click.echo(tty_ify(dump_yaml(dict(docs))))


def plugin_page(kind: str, name: str, playbook_dir: Path | None, collections_paths: list[Path]) -> Page:
    path = find_plugin_file(kind, name, playbook_dir, collections_paths, os.environ)
    short = name.removeprefix("ansible.builtin.").removeprefix("ansible.legacy.")
    builtin = jinja_builtins(kind).get(f"{BUILTIN}.{short}")
    if path is None and builtin is not None:
        return jinja_page(kind, short, builtin)
    if path is None:
        raise NotFound(f"{name} was not found", hint=f"looked beside --playbook-dir in {kind}_plugins/, in "
                       f"ANSIBLE_{kind.upper()}_PLUGINS, among ansible-core's and in the collections")
    fqcn = split_fqcn(name)
    collection = fqcn[0] if fqcn and not name.startswith("ansible.") else None
    core = installed_ansible_core()
    # the header names it as it was resolved: ansible-core's own by their full name, local ones by their own
    shown = name if collection is not None else short
    if path.stem == f"_{short}":  # found under its deprecated name
        shown = path.stem
    if core is not None and path.is_relative_to(core):
        shown = f"{BUILTIN}.{shown}"
    return file_page(shown, path, collections_paths, kind, collection)


def jinja_page(kind: str, name: str, description: str) -> Page:
    """The page of one of Jinja's own filters or tests that ansible-core does not document: the first sentence of
    its docstring and where Jinja documents it, as ansible-doc builds it."""
    url = f"https://jinja.palletsprojects.com/en/stable/templates/#jinja-{kind}s.{name}"
    documentation = {"collection": BUILTIN, "short_description": description,
                     "description": [description, "", f"This is the Jinja builtin {kind} plugin {name!r}.",
                                     f"See: U({url})"]}
    return Page(f"{BUILTIN}.{name}", "", documentation, collection=BUILTIN)


def _collections_paths(config: Config, playbook_dir: Path | None) -> list[Path]:
    """The collections beside --playbook-dir, then the configured ones. The default's project ``collections/``
    is the one beside the playbooks when --playbook-dir names them (the current folder's is left out), as
    ansible-doc sees no collection in the current folder."""
    configured = [Path(path) for path in config.collections_path or []]
    if playbook_dir is not None and config.origin("collections_path") == DEFAULT:
        configured = [path for path in configured if path != Path.cwd() / "collections"]
    return collection_search_path(configured, [playbook_dir] if playbook_dir is not None else [])
