"""The JSON Schemas in schemas/seeds/ are generated from the seed models, are current, and tell an editor what
validation would: they accept every valid example and reject what the checks and rules reject."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from runner.platform_specs import SEED_KINDS
from runner.platform_specs import schemas as seed_schemas
from tests.unit.platform_specs.examples import ALLOWED, CHECKS, RULES, VALID, CheckCase, RuleCase


@cache
def validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((seed_schemas.SCHEMA_DIR / f"{kind}.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def accepts(kind: str, data: Any) -> bool:
    return validator(kind).is_valid(data)


def test_committed_seed_schemas_are_current() -> None:
    assert seed_schemas.stale() == [], "run: python -m runner.platform_specs.schemas"


def test_there_is_one_schema_file_per_kind() -> None:
    assert sorted(path.name for path in seed_schemas.SCHEMA_DIR.glob("*.schema.json")) == sorted(
        f"{kind}.schema.json" for kind in SEED_KINDS)


def test_check_mode_reports_a_stale_schema_and_writing_makes_it_current(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert seed_schemas.main(["--dir", str(tmp_path)]) == 0
    assert seed_schemas.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / "volume-config.schema.json").write_text("{}\n")
    assert seed_schemas.main(["--check", "--dir", str(tmp_path)]) == 1
    assert ("volume-config.schema.json is not current; run python -m runner.platform_specs.schemas"
            in capsys.readouterr().err)


@pytest.mark.parametrize("kind", sorted(VALID))
def test_every_valid_example_is_valid_against_its_schema(kind: str) -> None:
    assert accepts(kind, VALID[kind])


@pytest.mark.parametrize(("kind", "data"), ALLOWED)
def test_what_the_rules_allow_the_schema_allows(kind: str, data: dict) -> None:
    assert accepts(kind, data)


@pytest.mark.parametrize("case", [case for case in CHECKS if case.schema], ids=str)
def test_the_schema_rejects_what_a_check_rejects(case: CheckCase) -> None:
    assert not accepts(case.kind, case.data)


@pytest.mark.parametrize("case", [case for case in RULES if case.schema], ids=str)
def test_the_schema_rejects_what_a_rule_rejects(case: RuleCase) -> None:
    assert not accepts(case.kind, case.data)


@pytest.mark.parametrize(("kind", "data", "valid"), [
    ("volume-config", {**VALID["volume-config"], "mount_pth": "/x"}, False),  # unknown keys are errors
    ("volume-config", {**VALID["volume-config"], "type": "ceph"}, False),
    ("volume-config", {**VALID["volume-config"], "readonly": "yes"}, True),  # as the loader reads booleans
    ("volume-config", {**VALID["volume-config"], "readonly": "maybe"}, False),
    ("container-config", {**VALID["container-config"], "expose_ports": [{"8080": 80}]}, True),
    ("container-config", {**VALID["container-config"], "expose_ports": [{"http": 80}]}, False),
    ("oci-registry-config", {**VALID["oci-registry-config"], "type": "zot", "zot_features": {}}, True),
    ("oci-registry-config", {**VALID["oci-registry-config"], "type": "harbor", "zot_features": {}}, False),
    ("oci-registry-config", {**VALID["oci-registry-config"], "type": "harbor", "harbor_config": {"project": "p"}},
     True),
    ("oci-registry-config", {key: value for key, value in VALID["oci-registry-config"].items()
                             if key != "namespaces"}, False),
    ("nested-provisioning", {"deployments": [VALID["multi-tier-deployment"]], "policy": {"max_cpu_per_vm": 8}},
     True),
])
def test_the_schema_reads_documents_as_validation_does(kind: str, data: dict, valid: bool) -> None:
    assert accepts(kind, data) is valid
