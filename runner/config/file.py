"""What a configuration file says: its entries matched to settings, with unknown sections and keys rejected."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from runner.config.ini import IniEntry, IniFile, read_ini
from runner.config.settings import BY_INI_KEY, SECTIONS, keys_in_section
from runner.errors import OptionError, SourcePosition, did_you_mean


@dataclass(frozen=True)
class FileValue:
    raw: str
    position: SourcePosition


def read_config_file(path: Path, unknown: list[str] | None = None) -> dict[str, FileValue]:
    """The raw value of every setting the file sets, by setting name.

    A setting written under two of its spellings (``interpreter`` and ``interpreter_python``) takes the one
    written last, as configparser-based tools do. An unknown section or key is an error, unless ``unknown`` is
    given (an ``ansible.cfg``, written for Ansible's many settings): then it is a warning appended there, and the
    entry is skipped.
    """
    ini = read_ini(path)
    unknown_sections = _check_sections(ini, unknown)
    values: dict[str, FileValue] = {}
    seen: dict[tuple[str, str], IniEntry] = {}
    for entry in ini.entries:
        pair = (entry.section, entry.key)
        if pair in seen:
            first = seen[pair].key_position.line
            raise OptionError(f"'{entry.key}' is set twice in [{entry.section}] (first on line {first})",
                              entry.key_position)
        seen[pair] = entry
        if entry.section in unknown_sections:
            continue
        setting = BY_INI_KEY.get(pair)
        if setting is None:
            if unknown is None:
                raise OptionError(f"unknown setting '{entry.key}' in [{entry.section}]", entry.key_position,
                                  hint=_hint_for_key(entry))
            # No did-you-mean: the key is most likely one of Ansible's own, not a misspelling of ours.
            unknown.append(f"{entry.key_position}: setting '{entry.key}' in [{entry.section}] is not one of "
                           "provisioning's: ignored")
            continue
        values[setting.name] = FileValue(entry.value, entry.value_position)
    return values


def _check_sections(ini: IniFile, unknown: list[str] | None) -> set[str]:
    """The unknown sections, whose keys are skipped (an error when ``unknown`` is None)."""
    seen: dict[str, SourcePosition] = {}
    skipped: set[str] = set()
    for section in ini.sections:
        if section.name not in SECTIONS and section.name not in skipped:
            if unknown is None:
                raise OptionError(f"unknown section [{section.name}]", section.position,
                                  hint=did_you_mean(section.name, SECTIONS) or f"known sections: {', '.join(SECTIONS)}")
            unknown.append(f"{section.position}: section [{section.name}] is not one of provisioning's: its "
                           "settings are ignored")
            skipped.add(section.name)
        if section.name in seen:
            raise OptionError(f"section [{section.name}] appears twice (first on line {seen[section.name].line})",
                              section.position)
        seen[section.name] = section.position
    return skipped


def _hint_for_key(entry: IniEntry) -> str | None:
    """A misspelling of a key in this section, or the section where this key belongs."""
    close = did_you_mean(entry.key, keys_in_section(entry.section))
    if close:
        return close
    elsewhere = sorted(section for (section, key) in BY_INI_KEY if key == entry.key)
    if elsewhere:
        return f"'{entry.key}' belongs in [{elsewhere[0]}]"
    return did_you_mean(entry.key, sorted({key for (_, key) in BY_INI_KEY}))
