"""The INI reader: configparser's syntax, with a position for every key and value."""

from __future__ import annotations

from pathlib import Path

from runner.config.ini import parse_ini

CFG = Path("/p/provisioning.cfg")


def test_keys_values_comments_and_positions() -> None:
    ini = parse_ini(
        "# a comment\n"
        "; another\n"
        "[defaults]  ; inline comment on a header\n"
        "  remote_user: deploy   # inline hash comment (indented, but no value to continue yet)\n"
        "Forks = 10 ; ten workers\n"
        "become_flags = -H -S\n"
        "colour = #fff\n", CFG)
    assert [s.name for s in ini.sections] == ["defaults"]
    assert [(e.section, e.key, e.value) for e in ini.entries] == [
        ("defaults", "remote_user", "deploy"),
        ("defaults", "forks", "10"),
        ("defaults", "become_flags", "-H -S"),
        ("defaults", "colour", "#fff"),  # '#' without whitespace before it is part of the value
    ]
    user, forks = ini.entries[:2]
    assert (user.key_position.line, user.key_position.column, user.value_position.column) == (4, 3, 16)
    assert (forks.key_position.line, forks.key_position.column) == (5, 1)
    assert (forks.value_position.line, forks.value_position.column) == (5, 9)
    assert str(forks.key_position) == "/p/provisioning.cfg:5:1"


def test_indented_lines_continue_the_previous_value() -> None:
    ini = parse_ini("[defaults]\ncallbacks_enabled = junit,\n    json\n\nforks = 2\n", CFG)
    assert [(e.key, e.value) for e in ini.entries] == [("callbacks_enabled", "junit,\njson"), ("forks", "2")]


def test_empty_values_and_percent_signs_are_kept_as_written() -> None:
    ini = parse_ini("[defaults]\nremote_user =\nlog_path = /var/log/100%.log\n", CFG)
    assert [(e.key, e.value) for e in ini.entries] == [("remote_user", ""), ("log_path", "/var/log/100%.log")]
