"""``provisioning-doc``: a module's documentation from its own file (like ansible-doc).

``provisioning-doc MODULE`` prints the description, the options (type, default, choices, aliases, required),
the examples and the return values; ``--list`` names every module with its short description; ``-s`` prints a
task snippet to start from. Modules come from the configured ``library`` directories, then the shipped ones; the
actions of the language itself (``include_tasks``, ``import_role``, ...) have pages of their own
(``runner.cli.language_pages``), so every ansible.builtin name has one.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from runner.cli.common import report_errors
from runner.cli.language_pages import LANGUAGE_ACTIONS, language_page
from runner.config import load_config
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


def module_page(info: ModuleInfo) -> Page:
    return Page(info.name, str(info.path), info.documentation, str(getattr(info.python, "EXAMPLES", "") or ""),
                getattr(info.python, "RETURN", None) or {}, tuple(_where(info)))


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
    if "default" in option and option["default"] is not None:
        lines.append(f"{INDENT}default: {_value(option['default'])}")
    kind = option.get("type", "str")
    if option.get("elements"):
        kind += f" (of {option['elements']})"
    lines.append(f"{INDENT}type: {kind}")
    return lines


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
@click.argument("modules", nargs=-1)
@report_errors
def main(list_: bool, snippet: bool, module_paths: tuple[Path, ...], modules: tuple[str, ...]) -> None:
    """Show the documentation of MODULE (options, examples, return values)."""
    config = load_config()
    library = [*module_paths, *(Path(p) for p in (config.library or []) if Path(p).is_dir())]
    index = ModuleIndex(library)
    if list_:
        if modules:
            raise OptionError("--list takes no MODULE")
        click.echo("\n".join(list_lines(index)))
        return
    if not modules:
        raise OptionError("name a MODULE to document, or give --list", hint="provisioning-doc --list")
    pages = [(snippet_lines if snippet else document_lines)(find_page(index, name)) for name in modules]
    click.echo("\n\n".join("\n".join(page).rstrip() for page in pages))
