"""--diff rendering: unified diffs of text and of dicts, headers, markers, colours, and the ad-hoc view."""

from __future__ import annotations

import io

import pytest

from runner.callbacks.adhoc import AdhocDisplay
from runner.callbacks.diff import render_diff


@pytest.fixture(autouse=True)
def _no_forced_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PROVISIONING_FORCE_COLOR", raising=False)


def test_text_diff_with_headers_and_context() -> None:
    before = "".join(f"line {n}\n" for n in range(1, 10))
    after = before.replace("line 5\n", "line five\n")
    text = render_diff({"before": before, "after": after, "before_header": "/etc/app.conf",
                        "after_header": "/etc/app.conf"})
    assert text == ("--- before: /etc/app.conf\n+++ after: /etc/app.conf\n@@ -2,7 +2,7 @@\n line 2\n line 3\n"
                    " line 4\n-line 5\n+line five\n line 6\n line 7\n line 8\n\n")


def test_dicts_are_compared_as_indented_json() -> None:
    text = render_diff({"before": {"mode": "0644", "state": "file"}, "after": {"mode": "0600", "state": "file"}})
    assert text == ('--- before\n+++ after\n@@ -1,4 +1,4 @@\n {\n-    "mode": "0644",\n+    "mode": "0600",\n'
                    '     "state": "file"\n }\n\n')


def test_missing_final_newline_is_marked() -> None:
    text = render_diff({"before": "a", "after": "b"})
    assert text == ("--- before\n+++ after\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
                    "\\ No newline at end of file\n\n")


def test_list_of_entries_prepared_text_and_skipped_reasons() -> None:
    text = render_diff([{"before": None, "after": "new\n", "after_header": "/tmp/x"},
                        {"prepared": "+ added user alice\n"},
                        {"dst_binary": 1}, {"src_larger": 1048576}])
    assert text == ("--- before\n+++ after: /tmp/x\n@@ -0,0 +1 @@\n+new\n\n+ added user alice\n"
                    "diff skipped: destination file appears to be binary\n"
                    "diff skipped: source file size is greater than 1048576\n")


def test_equal_sides_render_nothing() -> None:
    assert render_diff({"before": "same\n", "after": "same\n"}) == ""
    assert render_diff(None) == ""


def test_colours_added_removed_and_hunk_lines() -> None:
    text = render_diff({"before": "a\n", "after": "b\n"}, color=True)
    assert text == ("\033[31m--- before\033[0m\n\033[32m+++ after\033[0m\n\033[36m@@ -1 +1 @@\033[0m\n"
                    "\033[31m-a\033[0m\n\033[32m+b\033[0m\n\n")


def test_adhoc_prints_the_diff_before_the_result_and_hides_it_from_the_json() -> None:
    out = io.StringIO()
    AdhocDisplay(stream=out, nocolor=True).host_result(
        "web1", "copy", {"changed": True, "dest": "/etc/motd", "diff": {"before": "old\n", "after": "new\n"}})
    assert out.getvalue() == ('--- before\n+++ after\n@@ -1 +1 @@\n-old\n+new\n\n'
                              'web1 | CHANGED => {\n    "changed": true,\n    "dest": "/etc/motd"\n}\n')
