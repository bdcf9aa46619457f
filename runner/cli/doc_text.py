"""The text page of a documented module or plugin, laid out as ``ansible-doc`` lays it out without colour.

Scripts compare ``ansible-doc`` output with saved files, so the layout is ansible-core's (2.19): a ``> TYPE
NAME (FILE)`` header, the description, ``DEPRECATED:``, ``OPTIONS (= indicates it is required):`` (``=`` before a
required option, ``-`` before another, nested options indented), ``ATTRIBUTES:``, ``NOTES:``, ``SEE ALSO:``,
``REQUIREMENTS:``, every other key in capitals, then ``EXAMPLES:`` and ``RETURN VALUES:``. Markup (``C(x)``,
``O(x)``, ``M(x)`` ...) is shown as ansible-doc shows it with ``ANSIBLE_NOCOLOR``.
"""

from __future__ import annotations

import re
import shutil
import sys
import textwrap
from collections.abc import Mapping
from typing import Any

import yaml

from runner.ansible_api.config_deprecations import deprecation_details
from runner.ansible_api.core import ansible_core_version, installed_ansible_core
from runner.errors import OptionError

OPT_INDENT = " " * 8
BASE_INDENT = "  "
# keys a page shows elsewhere or never (ansible-doc's DocCLI.IGNORE)
IGNORED = (
    "module",
    "docuri",
    "version_added",
    "version_added_collection",
    "short_description",
    "now_date",
    "plainexamples",
    "returndocs",
    "collection",
    "plugin_name",
)
DOCSITE = "https://docs.ansible.com/ansible-core/"

_SEM = r"\(((?:[^\\)]+|\\.)+)\)"
_URL = re.compile(r"\bU\(([^)]+)\)")
_LINK = re.compile(r"\bL\(([^)]+), *([^)]+)\)")
_FQCN_TYPE = re.compile(r"^([^.]+\.[^.]+\.[^#]+)#([a-z]+):(.*)$")
_UNESCAPE = re.compile(r"\\(.)")
# markup and its plain-text form, applied in this order
_MARKUP: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bI\(([^)]+)\)"), r"`\1`"),
    (re.compile(r"\bB\(([^)]+)\)"), r"*\1*"),
    (re.compile(r"\bM\(([^)]+)\)"), r"[\1]"),
    (_URL, r"\1"),
    (_LINK, r"\1 <\2>"),
    (re.compile(r"\bP\(([^#)]+)#([a-z]+)\)"), r"[[\1]]"),  # its own brackets, then the no-colour plugin style
    (re.compile(r"\bR\(([^)]+), *([^)]+)\)"), r"\1"),
    (re.compile(r"\bC\(([^)]+)\)"), r"`\1'"),
)


def docsite() -> str:
    """The documentation of the installed ansible-core's release (major.minor), as ansible-doc links to it."""
    version = ansible_core_version() if installed_ansible_core() is not None else ""
    return DOCSITE + (".".join(version.split(".")[:2]) if version else "devel") + "/"


def columns() -> int:
    """ansible's display width: one less than the terminal's, at least 79 (79 when the output is not a one)."""
    return max(shutil.get_terminal_size((80, 24)).columns - 1 if sys.stdout.isatty() else 0, 79)


def text_limit(width: int) -> int:
    return max(width - int(width * 0.20), 70)


def _semantic(match: re.Match[str], complex_markup: bool) -> str:
    text = _UNESCAPE.sub(r"\1", match.group(1))
    if not complex_markup:
        return f"`{text}'"
    value = None
    if "=" in text:
        text, value = text.split("=", 1)
    plugin_fqcn = plugin_type = ""
    typed = _FQCN_TYPE.match(text)
    if typed:
        plugin_fqcn, plugin_type, text = typed.groups()
    elif text.startswith("ignore:"):
        text = text[len("ignore:") :]
    entrypoint = None
    if ":" in text:
        entrypoint, text = text.split(":", 1)
    if value is not None:
        text = f"{text}={value}"
    if plugin_fqcn and plugin_type:
        plugin = f"{plugin_type}{'' if plugin_type in ('role', 'module', 'playbook') else ' plugin'} {plugin_fqcn}"
        if plugin_type == "role" and entrypoint is not None:
            plugin = f"{plugin}, {entrypoint} entrypoint"
        return f"`{text}' (of {plugin})"
    return f"`{text}'"


def tty_ify(text: str) -> str:
    """Documentation markup as plain text (ansible-doc's ``tty_ify`` without colour)."""
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    text = re.sub(r"\bO" + _SEM, lambda m: _semantic(m, True), text)
    text = re.sub(r"\bV" + _SEM, lambda m: _semantic(m, False), text)
    text = re.sub(r"\bE" + _SEM, lambda m: _semantic(m, False), text)
    text = re.sub(r"\bRV" + _SEM, lambda m: _semantic(m, True), text)
    text = re.sub(r"\bHORIZONTALLINE\b", "\n" + "-" * 13 + "\n", text)
    text = re.sub(r".. seealso::", "See also:", text)
    text = re.sub(r".. note::", "Note:", text)
    text = re.sub(r":\w+?:`", "`", text)
    return re.sub(r".. \w+?::", "", text)


def warp_fill(
    text: str, limit: int, initial_indent: str = "", subsequent_indent: str = "", initial_extra: int = 0
) -> str:
    """Each paragraph (blank-line separated) wrapped at ``limit``; ``initial_extra`` counts the first line's
    lead-in (an option's name) that is printed before the text."""
    result = []
    for paragraph in text.split("\n\n"):
        wrapped = textwrap.fill(
            paragraph,
            limit,
            initial_indent=initial_indent + " " * initial_extra,
            subsequent_indent=subsequent_indent,
            break_on_hyphens=False,
            break_long_words=False,
            drop_whitespace=True,
        )
        if initial_extra and wrapped.startswith(" " * initial_extra):
            wrapped = wrapped[initial_extra:]
        result.append(wrapped)
        initial_indent, initial_extra = subsequent_indent, 0
    return "\n".join(result)


def dump_yaml(data: Any, flow_style: bool = False) -> str:
    return yaml.safe_dump(data, default_flow_style=flow_style, sort_keys=True, allow_unicode=True).rstrip("\n")


def indent_lines(text: str, indent: str) -> str:
    return tty_ify("\n".join(indent + line for line in text.split("\n")))


def version_added(version: Any, collection: Any = None) -> str:
    if collection == "ansible.builtin":
        collection = "ansible-core"
        if version == "historical":
            return "historical"
    return f"version {version} of {collection}" if collection else f"version {version}"


def _description_lines(name: str, description: Any, key: str, limit: int, opt_indent: str,
                       base_indent: str) -> list[str]:
    inline_indent = " " * max(len(opt_indent) - len(name) - len(base_indent), 2)
    extra_indent = base_indent + " " * (len(name) + 3)
    sub_indent = inline_indent + extra_indent
    entries = description if isinstance(description, list | tuple) else [description]
    lines = []
    for number, entry in enumerate(entries, 1):
        if not isinstance(entry, str):
            raise OptionError(
                f"Expected string in description of {name}"
                + (f" at index {number}" if entries is description else "")
                + f", got {type(entry)}"
            )
        if number == 1:
            lines.append(
                key
                + warp_fill(
                    tty_ify(entry),
                    limit,
                    initial_indent=inline_indent,
                    subsequent_indent=sub_indent,
                    initial_extra=len(extra_indent),
                )
            )
        else:
            lines.append(warp_fill(tty_ify(entry), limit, initial_indent=sub_indent, subsequent_indent=sub_indent))
    return lines


def field_lines(
    fields: Mapping[str, Any],
    limit: int,
    opt_indent: str,
    *,
    return_values: bool = False,
    base_indent: str = "",
    man: bool = False,
    verbosity: int = 0,
) -> list[str]:
    """Options (or return values) with their details, sub-options nested two columns further in."""
    lines: list[str] = []
    for name in sorted(fields):
        field = fields[name]
        field = dict(field) if isinstance(field, Mapping) else {"description": field}
        required = field.pop("required", False)
        if not isinstance(required, bool):
            raise OptionError(f"Incorrect value for 'Required', a boolean is needed.: {required}")
        key = f"{base_indent}{'=' if required else '-'} {name}"
        if "description" not in field:
            raise OptionError("All (sub-)options and return values must have a 'description' field")
        lines.append("")
        lines += _description_lines(name, field.pop("description"), key, limit, opt_indent, base_indent)
        nested = [(sub, field.pop(sub)) for sub in ("options", "suboptions", "contains", "spec") if sub in field]
        if not required and not return_values and "default" not in field:
            field["default"] = None
        set_via: dict[str, Any] = {}
        for source in ("env", "ini", "yaml", "vars", "keyword"):
            if field.get(source):
                items = [dict(item) for item in field.pop(source)]
                for item in items:
                    if verbosity > 0 and "version_added" in item:
                        item["added_in"] = version_added(item["version_added"], "ansible-core")
                    for ignored in IGNORED:
                        item.pop(ignored, None)
                set_via[source] = items
        if field.get("cli"):
            set_via["cli"] = [
                cli if "option" in cli else {"name": cli["name"], "option": "--" + cli["name"].replace("_", "-")}
                for cli in field.pop("cli")
            ]
        if set_via:
            lines.append(indent_lines(dump_yaml({"set_via": set_via}), opt_indent))
        added = field.pop("version_added", None)
        added_collection = field.pop("version_added_collection", None)
        for detail in sorted(field):
            if detail.startswith("_"):
                continue
            value = field[detail]
            if isinstance(value, list | tuple):
                lines.append(indent_lines(f"{detail}: {dump_yaml(list(value), flow_style=True)}", opt_indent))
            else:
                lines.append(indent_lines(dump_yaml({detail: value}), opt_indent))
        if added and not man:
            lines.append(f"{opt_indent}added in: {version_added(added, added_collection)}")
        for sub, data in nested:
            lines.append(f"{opt_indent}{sub}:")
            # ansible-doc tells when a nested option was added even on the plain page (man is not passed on)
            lines += field_lines(
                data, limit, opt_indent + "  ", return_values=return_values, base_indent=opt_indent, verbosity=verbosity
            )
    return lines


def _bullet(text: str, limit: int, indent: str) -> str:
    return warp_fill(tty_ify(text), limit - 6, initial_indent=indent[:-2] + "* ", subsequent_indent=indent)


def _detail(text: str, limit: int, indent: str, subsequent: str | None = None) -> str:
    return warp_fill(
        tty_ify(text),
        limit - 6,
        initial_indent=indent + "   ",
        subsequent_indent=indent + "   " if subsequent is None else subsequent,
    )


def _plugin_seealso(name: str, kind: str, title: str, called: str, item: Mapping[str, Any], limit: int,
                    indent: str) -> list[str]:
    """A ``SEE ALSO:`` entry naming a module or plugin: ``title name``, its description (ansible.builtin's
    own: its official documentation, with the documentation's address)."""
    lines = [_bullet(f"{title} {name}", limit, indent)]
    description = item.get("description")
    builtin = name.startswith("ansible.builtin.")
    if description is None and builtin:
        description = f"The official documentation on the {name} {called}."
    if description is not None:
        lines.append(_detail(description, limit, indent))
    if builtin:
        lines.append(_detail(f"{docsite()}collections/{name.replace('.', '/', 2)}_{kind}.html", limit, indent, indent))
    return lines


def examples_lines(examples: Any) -> list[str]:
    """An ``EXAMPLES:`` section: text as written, data as YAML; none when there are no examples."""
    if not examples:
        return []
    return ["", "EXAMPLES:",
            examples.strip() if isinstance(examples, str) else yaml.safe_dump(examples, indent=2,
                                                                              default_flow_style=False)]


def seealso_lines(items: list[Any], limit: int, indent: str = OPT_INDENT) -> list[str]:
    """``SEE ALSO:`` entries: a module, a plugin, a link or a documentation reference, each with its description
    (ansible.builtin's own get their documentation's address)."""
    lines = []
    for item in items:
        if "module" in item:
            lines += _plugin_seealso(item["module"], "module", "Module", "module", item, limit, indent)
        elif "plugin" in item and "plugin_type" in item:
            kind = item["plugin_type"]
            suffix = " plugin" if kind not in ("module", "role") else ""
            lines += _plugin_seealso(item["plugin"], kind, f"{kind.title()}{suffix}", f"{kind}{suffix}", item, limit,
                                     indent)
        elif "name" in item and "link" in item and "description" in item:
            lines += [
                _bullet(item["name"], limit, indent),
                _detail(item["description"], limit, indent),
                _detail(item["link"], limit, indent),
            ]
        elif "ref" in item and "description" in item:
            lines += [
                _bullet(f"Ansible documentation [{item['ref']}]", limit, indent),
                _detail(item["description"], limit, indent),
                _detail(f"{docsite()}#stq={item['ref']}&stp=1", limit, indent),
            ]
    return lines


def man_text(
    documentation: Mapping[str, Any],
    *,
    plugin_type: str,
    name: str,
    filename: str | None,
    examples: Any = None,
    returns: Any = None,
    collection: str | None = None,
    has_action: bool = False,
    verbosity: int = 0,
    width: int | None = None,
) -> str:
    """The whole page, as ``ansible-doc [-t TYPE] NAME`` prints it."""
    doc = dict(documentation)
    limit = text_limit(columns() if width is None else width)
    ignored = (*IGNORED, plugin_type)
    text = [f"> {plugin_type.upper()} {name} ({filename or 'Jinja2'})", ""]
    description = doc.pop("description", [])
    for paragraph in description if isinstance(description, list) else [description]:
        text.append(
            warp_fill(tty_ify(str(paragraph)), limit, initial_indent=BASE_INDENT, subsequent_indent=BASE_INDENT)
        )
    if verbosity > 0:
        doc["added_in"] = version_added(
            doc.pop("version_added", "historical"), doc.pop("version_added_collection", "ansible-core")
        )
    deprecated = doc.pop("deprecated", None)
    if deprecated:
        text.append("DEPRECATED: ")
        if isinstance(deprecated, Mapping):
            details = dict(deprecated)
            if "removed_at_date" not in details and "version" in details and "removed_in" not in details:
                details["removed_in"] = details["version"]
            text.append("\t" + deprecation_details(details, include_removal=True, collection_name=collection or ""))
        else:
            text.append(str(deprecated))
    if has_action:
        text += ["", "  * note: This module has a corresponding action plugin."]
    if doc.get("options"):
        text += ["", "OPTIONS (= indicates it is required):"]
        text += field_lines(doc.pop("options"), limit, OPT_INDENT, man=verbosity == 0, verbosity=verbosity)
    if doc.get("attributes"):
        text += ["", "ATTRIBUTES:"]
        for key, value in doc.pop("attributes").items():
            text += [
                "",
                warp_fill(tty_ify(f"`{key}:`"), limit - 6, initial_indent=OPT_INDENT, subsequent_indent=OPT_INDENT),
                indent_lines(dump_yaml(value), OPT_INDENT),
            ]
    if doc.get("notes"):
        text += ["", "NOTES:", *(_bullet(str(note), limit, OPT_INDENT) for note in doc.pop("notes"))]
    if doc.get("seealso"):
        text += ["", "SEE ALSO:", *seealso_lines(doc.pop("seealso"), limit)]
    if doc.get("requirements"):
        requirements = ", ".join(str(item) for item in doc.pop("requirements"))
        text += [
            "",
            "REQUIREMENTS:"
            + warp_fill(tty_ify(requirements), limit - 16, initial_indent="  ", subsequent_indent=OPT_INDENT)
            + "\n",
        ]
    for key in sorted(doc):
        value = doc[key]
        if not value or key in ignored:
            continue
        text.append("")
        if isinstance(value, str):
            text.append(
                f"{key.upper()}: {warp_fill(tty_ify(value), limit - (len(key) + 2), subsequent_indent=OPT_INDENT)}"
            )
        elif isinstance(value, list | tuple):
            text.append(f"{key.upper()}: {', '.join(str(item) for item in value)}")
        else:
            text.append(f"{key.upper()}: " + indent_lines(dump_yaml(value), " " * (len(key) + 2)))
    text += examples_lines(examples)
    if returns:
        text += ["", "RETURN VALUES:"]
        text += field_lines(returns, limit, OPT_INDENT, return_values=True, man=verbosity == 0, verbosity=verbosity)
    text.append("\n")
    return "\n".join(text)
