"""``provisioning-doc``: a module's documentation from its own file (like ansible-doc).

``provisioning-doc MODULE`` prints the description, the options (type, default, choices, aliases, required),
the examples and the return values; ``--list`` names every module with its short description; ``-s`` prints a
task snippet to start from. Modules come from the configured ``library`` directories, then the shipped ones; the
actions of the language itself (``include_tasks``, ``import_role``, ...) have pages of their own
(``runner.cli.language_pages``), so every ansible.builtin name has one.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click
import yaml

from runner.ansible_api.collections import collection_search_path, split_fqcn
from runner.ansible_api.config_deprecations import deprecation_details
from runner.cli.common import report_errors
from runner.cli.doc_sources import PLUGIN_TYPES, doc_strings, find_plugin_file, yaml_doc
from runner.cli.language_pages import LANGUAGE_ACTIONS, language_page
from runner.config import Config, load_config
from runner.errors import OptionError
from runner.module_index import ModuleIndex, ModuleInfo

INDENT = " " * 8


def _width() -> int:
    return max(60, min(shutil.get_terminal_size((100, 24)).columns, 120))


def _wrap(text: str, indent: str = INDENT) -> list[str]:
    return textwrap.wrap(" ".join(str(text).split()), _width(), initial_indent=indent,
                         subsequent_indent=indent) or [indent.rstrip()]


def _paragraphs(value: Any) -> list[str]:
    if value is None:
        return []
    return [str(item) for item in value] if isinstance(value, list | tuple) else [str(value)]


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if value == "":
        return "''"
    return str(value)


@dataclass(frozen=True)
class Page:
    """What provisioning-doc shows of a module or a language action."""

    name: str
    origin: str  # where it is documented, shown in the page's first line
    documentation: Mapping[str, Any]
    examples: str = ""
    returns: Mapping[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    collection: str | None = None  # NS.COLL of a collection's module or plugin (its deprecations name it)


def module_page(info: ModuleInfo) -> Page:
    if not info.documentation and (info.ansible_api or info.legacy_style):
        # written as Ansible writes modules: YAML strings, read from the file (such a module is never imported)
        return replace(file_page(info.name, info.path, tuple(_where(info))), collection=info.collection)
    return Page(info.name, str(info.path), info.documentation, str(getattr(info.python, "EXAMPLES", "") or ""),
                getattr(info.python, "RETURN", None) or {}, tuple(_where(info)))


def file_page(name: str, path: Path, notes: tuple[str, ...] = ()) -> Page:
    """The page of a module or plugin file documented as Ansible documents them (YAML in strings)."""
    strings = doc_strings(path)
    return Page(name, str(path), yaml_doc(path, "DOCUMENTATION", strings.get("DOCUMENTATION")),
                strings.get("EXAMPLES", ""), yaml_doc(path, "RETURN", strings.get("RETURN")), notes)


def find_page(index: ModuleIndex, name: str) -> Page:
    """The page of module ``name``, or of the language action of that name (ansible.builtin. prefix or not)."""
    page = language_page(name.removeprefix("ansible.builtin.").removeprefix("ansible.legacy."))
    if page is None:
        return module_page(index.get(name))
    short = page.__name__.rsplit(".", 1)[-1]
    return Page(short, str(page.__file__), page.DOCUMENTATION, page.EXAMPLES, page.RETURN,
                ("Carried out by the compiler and the executor: no module runs on the host.",))


def short_description(page: Page) -> str:
    return str(page.documentation.get("short_description") or "").strip()


def list_lines(index: ModuleIndex) -> list[str]:
    """One line per module or language action: its name, padded, and its short description."""
    names = sorted({*index.names(), *LANGUAGE_ACTIONS})
    width = max((len(name) for name in names), default=0)
    return [f"{name.ljust(width)}  {short_description(find_page(index, name))}".rstrip() for name in names]


def option_lines(name: str, option: Mapping[str, Any]) -> list[str]:
    """One option as ansible-doc shows it: '=' marks a required option, '-' an optional one."""
    lines = [f"{'=' if option.get('required') else '-'} {name}"]
    for paragraph in _paragraphs(option.get("description")):
        lines += _wrap(paragraph)
    for key in ("aliases", "choices"):
        if option.get(key):
            lines.append(f"{INDENT}{key}: [{', '.join(_value(v) for v in option[key])}]")
    # a plugin's option: where it is set from (environment, ansible.cfg, variables), as ansible-doc shows it
    set_via = {key: option[key] for key in ("env", "ini", "vars", "keyword") if option.get(key)}
    if set_via:
        lines += _yaml_lines({"set_via": set_via})
    if "default" in option and option["default"] is not None:
        lines.append(f"{INDENT}default: {_value(option['default'])}")
    kind = option.get("type", "str")
    if option.get("elements"):
        kind += f" (of {option['elements']})"
    lines.append(f"{INDENT}type: {kind}")
    if option.get("deprecated"):
        lines += _yaml_lines({"deprecated": option["deprecated"]})
    return lines


def _yaml_lines(data: Mapping[str, Any]) -> list[str]:
    text = yaml.safe_dump(dict(data), default_flow_style=False, sort_keys=True, allow_unicode=True)
    return [f"{INDENT}{line}" for line in text.rstrip("\n").splitlines()]


def deprecated_lines(deprecated: Any, collection: str | None) -> list[str]:
    """ansible-doc's ``DEPRECATED:`` section: why, when it goes, what to use instead (each on a tabbed line)."""
    if not isinstance(deprecated, Mapping):
        return ["DEPRECATED: ", str(deprecated)]
    details = dict(deprecated)
    if "removed_at_date" not in details and "version" in details and "removed_in" not in details:
        details["removed_in"] = details["version"]
    return ["DEPRECATED: ", "\t" + deprecation_details(details, include_removal=True, collection_name=collection)]


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


def document_lines(page: Page) -> list[str]:
    """The whole page for one module."""
    doc = page.documentation
    lines = [f"> {page.name.upper()}    ({page.origin})", ""]
    for paragraph in _paragraphs(doc.get("short_description")) + _paragraphs(doc.get("description")):
        lines += _wrap(paragraph, "  ")
        lines.append("")
    if doc.get("deprecated"):
        lines += [*deprecated_lines(doc["deprecated"], page.collection), ""]
    for note in page.notes:
        lines += _wrap(note, "  ")
    if page.notes:
        lines.append("")
    options = doc.get("options") or {}
    if options:
        lines += ["OPTIONS (= is mandatory):", ""]
        for name in sorted(options):
            lines += [*option_lines(name, options[name]), ""]
    examples = page.examples.strip("\n")
    if examples:
        lines += ["EXAMPLES:", "", textwrap.dedent(examples), ""]
    returns = page.returns
    if returns:
        lines += ["RETURN VALUES:", ""]
        for key, meaning in returns.items():
            lines += [f"- {key}", *_wrap(meaning if isinstance(meaning, str) else meaning.get("description", "")),
                      ""]
    return lines


def snippet_lines(page: Page) -> list[str]:
    """A task to start from: required options first, each with its description as a comment."""
    options = page.documentation.get("options") or {}
    ordered = sorted(options, key=lambda name: (not options[name].get("required"), name))
    lines = [f"- name: {short_description(page) or page.name}", f"  {page.name}:"]
    for name in ordered:
        option = options[name]
        summary = " ".join(_paragraphs(option.get("description"))).split(". ")[0].rstrip(".")
        marker = " (required)" if option.get("required") else ""
        lines.append(f"    {name}:{' ' * max(1, 24 - len(name))}# {summary}{marker}")
    return lines


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.option("-l", "--list", "list_", is_flag=True, help="List every available module with its short description.")
@click.option("-s", "--snippet", is_flag=True, help="Print a task snippet for each MODULE.")
@click.option("-M", "--module-path", "module_paths", multiple=True, type=click.Path(path_type=Path),
              help="Also look for modules in this directory (repeatable; the configured library is always read).")
@click.option("-t", "--type", "plugin_type", type=click.Choice(PLUGIN_TYPES), default="module", show_default=True,
              help="What NAME is: a module, or a plugin of this type (cache, lookup, callback ...), whose "
                   "documentation is read from its file as Ansible writes it.")
@click.option("--playbook-dir", type=click.Path(path_type=Path),
              help="Where the playbooks would be: its library/ and TYPE_plugins/ folders are searched too.")
@click.argument("modules", nargs=-1)
@report_errors
def main(list_: bool, snippet: bool, module_paths: tuple[Path, ...], plugin_type: str, playbook_dir: Path | None,
         modules: tuple[str, ...]) -> None:
    """Show the documentation of MODULE (options, examples, return values), or of a plugin with -t TYPE."""
    config = load_config()
    beside = [playbook_dir / "library"] if playbook_dir is not None and (playbook_dir / "library").is_dir() else []
    library = [*module_paths, *beside, *(Path(p) for p in (config.library or []) if Path(p).is_dir())]
    if list_:
        if modules or plugin_type != "module":
            raise OptionError("--list takes no MODULE, and lists modules only")
        click.echo("\n".join(list_lines(ModuleIndex(library))))
        return
    if not modules:
        raise OptionError("name a MODULE to document, or give --list", hint="provisioning-doc --list")
    if plugin_type == "module":
        index = ModuleIndex(library, collections_paths=_collections_paths(config, playbook_dir))
        found = [find_page(index, name) for name in modules]
    else:
        found = [plugin_page(plugin_type, name, playbook_dir, _collections_paths(config, playbook_dir))
                 for name in modules]
    pages = [(snippet_lines if snippet else document_lines)(page) for page in found]
    click.echo("\n\n".join("\n".join(page).rstrip() for page in pages))


def plugin_page(kind: str, name: str, playbook_dir: Path | None, collections_paths: list[Path]) -> Page:
    path = find_plugin_file(kind, name, playbook_dir, collections_paths, os.environ)
    if path is None:
        raise OptionError(f"{kind} plugin {name!r} not found (looked beside --playbook-dir in {kind}_plugins/, "
                          f"in ANSIBLE_{kind.upper()}_PLUGINS, among ansible-core's and in the collections)")
    collection = split_fqcn(name)
    return replace(file_page(name.rsplit(".", 1)[-1], path),
                   collection=collection[0] if collection and not name.startswith("ansible.") else None)


def _collections_paths(config: Config, playbook_dir: Path | None) -> list[Path]:
    configured = [Path(path) for path in config.collections_path or []]
    return collection_search_path(configured, [playbook_dir] if playbook_dir is not None else [])
