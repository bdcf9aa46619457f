"""ini_file's edits, as community.general's ini_file makes them (pure: lines in, lines out)."""

from __future__ import annotations

from modules.ini_file import IniEdit, split_text_lines


def edit(text: str, *args: object, **options: object) -> tuple[str, str, bool]:
    flags = {key: options.pop(key) for key in ("no_extra_spaces", "ignore_spaces", "allow_no_value",
                                               "modify_inactive_option") if key in options}
    change = IniEdit(split_text_lines(text), **flags)
    lines = change.apply(*args, **options)
    return "".join(lines), change.msg, change.changed


def test_a_new_file_starts_with_an_empty_line() -> None:
    assert edit("", "drinks", "fav", ["lemonade"]) == ("\n[drinks]\nfav = lemonade\n", "section and option added",
                                                       True)
    assert edit("", "drinks", None, []) == ("\n[drinks]\n", "only section added", True)


def test_set_change_and_leave_alone() -> None:
    text = "[a]\nx = 1\n\n[b]\nx = 1\n"
    assert edit(text, "b", "x", ["2"]) == ("[a]\nx = 1\n\n[b]\nx = 2\n", "option changed", True)
    assert edit(text, "b", "x", ["1"]) == (text, "OK", False)
    assert edit(text, "a", "y", ["3"]) == ("[a]\nx = 1\ny = 3\n\n[b]\nx = 1\n", "option added", True)


def test_no_extra_spaces_and_ignore_spaces() -> None:
    assert edit("[a]\n", "a", "x", ["1"], no_extra_spaces=True)[0] == "[a]\nx=1\n"
    assert edit("[a]\nx=1\n", "a", "x", ["1"], ignore_spaces=True) == ("[a]\nx=1\n", "OK", False)
    assert edit("[a]\nx=1\n", "a", "x", ["1"])[0] == "[a]\nx = 1\n"


def test_a_commented_option_is_taken_over_unless_told_otherwise() -> None:
    text = "[php]\n;date.timezone =\n"
    assert edit(text, "php", "date.timezone", ["UTC"])[0] == "[php]\ndate.timezone = UTC\n"
    assert edit(text, "php", "date.timezone", ["UTC"], modify_inactive_option=False)[0] == (
        "[php]\ndate.timezone = UTC\n;date.timezone =\n")  # after the section's last setting, not a comment


def test_several_values_exclusive_or_not() -> None:
    text = "[d]\nb = a\nb = x\n"
    assert edit(text, "d", "b", ["c", "a"])[0] == "[d]\nb = a\nb = c\n"
    assert edit(text, "d", "b", ["c"], exclusive=False)[0] == "[d]\nb = a\nb = x\nb = c\n"
    assert edit(text, "d", "b", ["x"], state="absent", exclusive=False)[0] == "[d]\nb = a\n"
    assert edit(text, "d", "b", [], state="absent")[0] == "[d]\n"


def test_options_go_after_the_last_setting_of_the_section() -> None:
    text = "[a]\nx = 1\n# note\n\n[b]\n"
    assert edit(text, "a", "y", ["2"])[0] == "[a]\nx = 1\ny = 2\n# note\n\n[b]\n"


def test_without_a_section_before_the_first_one() -> None:
    assert edit("top = 1\n[x]\ny = 1\n", None, "top", ["2"])[0] == "top = 2\n[x]\ny = 1\n"
    assert edit("[x]\ny = 1\n", None, "top", ["2"])[0] == "top = 2\n[x]\ny = 1\n"


def test_sections_removed() -> None:
    assert edit("[a]\nx = 1\n[b]\ny = 2\n", "a", None, [], state="absent") == ("[b]\ny = 2\n", "section removed",
                                                                              True)
    assert edit("[b]\n", "a", None, [], state="absent") == ("[b]\n", "OK", False)


def test_options_without_values() -> None:
    assert edit("[mysqld]\n", "mysqld", "skip-name-resolve", [], allow_no_value=True)[0] == (
        "[mysqld]\nskip-name-resolve\n")
    assert edit("[mysqld]\nskip-name-resolve\n", "mysqld", "skip-name-resolve", [], allow_no_value=True)[2] is False


def test_section_has_picks_among_sections_of_the_same_name() -> None:
    text = "[Peer]\nAllowedIPs = 10.0.0.1\nKey = a\n[Peer]\nAllowedIPs = 10.0.0.2\nKey = b\n"
    wanted = [{"option": "AllowedIPs", "value": "10.0.0.2"}]
    assert edit(text, "Peer", "Key", ["c"], section_has=wanted)[0] == text.replace("Key = b", "Key = c")
    assert edit(text, "Peer", "Key", ["d"], section_has=[{"option": "AllowedIPs", "value": "10.0.0.3"}])[0] == (
        text + "[Peer]\nAllowedIPs = 10.0.0.3\nKey = d\n")


def test_a_missing_final_newline_is_a_change_and_crlf_reads_as_lf() -> None:
    assert edit("[a]\nx = 1", "a", "x", ["1"]) == ("[a]\nx = 1\n", "OK", True)
    assert split_text_lines("a\r\nb") == ["a\n", "b"]
