"""ansible-core's deprecated configuration entries, as it reports them when a run starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.ansible_api.config_deprecations import config_deprecations
from runner.ansible_api.core import installed
from runner.config import load_config

WHY = {"why": "for testing", "version": "3.30", "alternatives": "nothing"}
DEFINITIONS = {
    "_Z_TEST_ENTRY": {
        "env": [{"name": "ANSIBLE_TEST_ENTRY"}, {"name": "ANSIBLE_TEST_ENTRY_D", "deprecated": WHY}],
        "ini": [{"section": "testing", "key": "valid"}, {"section": "testing", "key": "deprecated", "deprecated": WHY}],
    },
    "_Z_TEST_ENTRY_2": {
        "deprecated": WHY,
        "env": [{"name": "ANSIBLE_TEST_ENTRY2"}],
        "ini": [{"section": "testing", "key": "valid2"}],
    },
}
REMOVAL = "\nAlternatives: nothing. This feature will be removed from ansible-core version 3.30."


def test_a_source_that_is_deprecated_is_named_when_it_is_set() -> None:
    assert config_deprecations({("testing", "deprecated")}, {}, DEFINITIONS) == [
        "[testing]deprecated option. Reason: for testing" + REMOVAL
    ]
    assert config_deprecations(set(), {"ANSIBLE_TEST_ENTRY_D": "1"}, DEFINITIONS) == [
        "ANSIBLE_TEST_ENTRY_D option. Reason: for testing" + REMOVAL
    ]


def test_a_deprecated_setting_is_named_whichever_of_its_sources_sets_it() -> None:
    expected = ["_Z_TEST_ENTRY_2 option. Reason: for testing" + REMOVAL]
    assert config_deprecations({("testing", "valid2")}, {}, DEFINITIONS) == expected
    assert config_deprecations(set(), {"ANSIBLE_TEST_ENTRY2": "1"}, DEFINITIONS) == expected


def test_nothing_is_said_of_what_is_not_deprecated_or_not_set() -> None:
    assert config_deprecations({("testing", "valid")}, {"ANSIBLE_TEST_ENTRY": "1"}, DEFINITIONS) == []
    assert config_deprecations(set(), {}, DEFINITIONS) == []


@pytest.mark.skipif(not installed(), reason="reads the installed ansible-core's definitions")
def test_an_ansible_cfg_key_ansible_core_deprecates_is_reported_by_the_configuration(tmp_path: Path) -> None:
    (tmp_path / "ansible.cfg").write_text("[testing]\ndeprecated = false\n")
    config = load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    assert [text.partition(" Reason")[0] for text in config.deprecations] == ["[testing]deprecated option."]
