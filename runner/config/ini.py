"""Reading an INI file the way configparser does, but keeping the line and column of every key and value.

Syntax: ``[section]`` headers, ``key = value`` or ``key: value`` lines (keys are case-insensitive), full-line
comments starting with ``#`` or ``;``, inline comments after whitespace and ``;`` or ``#``, and indented
continuation lines that extend the previous value. No interpolation: ``%`` is an ordinary character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from runner.errors import ParseError, SourcePosition

_SECTION = re.compile(r"\[(?P<name>[^\]]*)\]\s*(?:[;#].*)?$")
_OPTION = re.compile(r"(?P<key>[^=:\s][^=:]*?)\s*[=:]\s*(?P<value>.*)$")
_INLINE_COMMENT = re.compile(r"\s[;#].*$")


@dataclass(frozen=True)
class IniSection:
    name: str
    position: SourcePosition


@dataclass
class IniEntry:
    section: str
    key: str
    value: str
    key_position: SourcePosition
    value_position: SourcePosition


@dataclass
class IniFile:
    path: Path
    sections: list[IniSection]
    entries: list[IniEntry]


def read_ini(path: Path) -> IniFile:
    """Parse ``path``; a line that is neither a header, an option, a comment nor a continuation is a ParseError."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ParseError(f"cannot read configuration file {path}: {exc}") from None
    return parse_ini(text, path)


def parse_ini(text: str, path: Path) -> IniFile:
    result = IniFile(path, [], [])
    section: str | None = None
    last: IniEntry | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped[0] in "#;":
            continue
        if line[0].isspace() and last is not None:
            last.value = f"{last.value}\n{_without_comment(stripped)}".strip()
            continue
        indent = len(line) - len(line.lstrip())
        here = SourcePosition(str(path), number, indent + 1)
        header = _SECTION.match(stripped)
        if header:
            section = header.group("name").strip()
            result.sections.append(IniSection(section, here))
            last = None
            continue
        option = _OPTION.match(stripped)
        if not option:
            raise ParseError("expected '[section]' or 'key = value'", here)
        if section is None:
            raise ParseError("a setting before any '[section]' header (settings go under [defaults] and others)",
                             here)
        value_column = indent + option.start("value") + 1
        last = IniEntry(section, option.group("key").strip().lower(), _without_comment(option.group("value")),
                        here, SourcePosition(str(path), number, value_column))
        result.entries.append(last)
    return result


def _without_comment(value: str) -> str:
    return _INLINE_COMMENT.sub("", value).strip()
