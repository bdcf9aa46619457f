"""Default-view options set by variables (runner/cli/run.py): ansible-core 2.21 reads
``ansible_display_skipped_hosts`` from the extra vars, templated with them; ``omit`` keeps the configured value."""

from __future__ import annotations

from runner.cli.run import _option_variable

NAME = "ansible_display_skipped_hosts"


def test_an_extra_var_sets_the_option_templated_with_the_others() -> None:
    assert _option_variable({}, NAME, True) is True
    assert _option_variable({NAME: "{{ indirect }}", "indirect": False}, NAME, True) is False
    assert _option_variable({NAME: "{{ indirect }}", "indirect": "yes"}, NAME, False) is True


def test_omit_keeps_the_configured_value() -> None:
    assert _option_variable({NAME: "{{ indirect }}", "indirect": "{{ omit }}"}, NAME, True) is True
    assert _option_variable({NAME: "{{ omit }}"}, NAME, False) is False
