"""Every check of the seed schemas fails with the original message, word for word, at the field it is about."""

from __future__ import annotations

import pytest

from runner.errors import SourcePosition
from runner.platform_specs import SEED_KINDS
from tests.unit.platform_specs.examples import ALLOWED, CHECKS, RULES, VALID, CheckCase, RuleCase, problems, seed_yaml


def key_line(text: str, key: str) -> int:
    return next(number for number, line in enumerate(text.splitlines(), 1) if line.startswith(f"{key}:"))


def test_every_kind_has_a_valid_example() -> None:
    assert set(VALID) == set(SEED_KINDS)


@pytest.mark.parametrize("kind", sorted(VALID))
def test_the_minimal_example_of_every_kind_reads(kind: str) -> None:
    assert problems(kind, seed_yaml(VALID[kind])) == []


@pytest.mark.parametrize("case", CHECKS, ids=str)
def test_a_failed_check_says_the_original_message_at_the_value(case: CheckCase) -> None:
    text = seed_yaml(case.data)
    [error] = problems(case.kind, text)
    assert error.message == case.message
    line = key_line(text, case.key)
    if isinstance(case.value, list | dict):
        assert error.position is not None and error.position.line >= line
    else:
        assert error.position == SourcePosition("seed.yml", line, len(case.key) + 3)


@pytest.mark.parametrize("case", RULES, ids=str)
def test_a_failed_rule_between_fields_says_the_original_message_at_the_field_it_is_about(case: RuleCase) -> None:
    text = seed_yaml(case.data)
    [error] = problems(case.kind, text)
    assert error.message == case.message
    assert error.position == SourcePosition("seed.yml", key_line(text, case.key), len(case.key) + 3)


def test_every_broken_rule_of_a_mapping_is_reported_not_only_the_first() -> None:
    text = seed_yaml({**VALID["oci-registry-config"], "deployment": "local", "auth_required": True,
                      "tls_enabled": True})
    assert [(error.position.line, error.message) for error in problems("oci-registry-config", text)] == [
        (1, "Config must match deployment type"),
        (5, "Authentication config required when auth enabled"),
        (6, "TLS cert/key required for local TLS"),
    ]


@pytest.mark.parametrize(("kind", "data"), ALLOWED)
def test_what_the_rules_allow_reads(kind: str, data: dict) -> None:
    assert problems(kind, seed_yaml(data)) == []


def test_each_field_of_a_mapping_is_checked_on_its_own() -> None:
    text = seed_yaml({"name": "", "parent_vm": "", "cpu": 64, "memory_mb": 128, "disk_gb": 2000, "networks": []})
    assert [error.message for error in problems("nested-vm-config", text)] == [
        "VM name required", "Parent VM required", "CPU must be 1-32", "Memory must be 512MB-64GB",
        "Disk must be 5-1000GB",
    ]
