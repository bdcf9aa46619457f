"""The JSON Schemas in schemas/ are generated from the models and must be current; they accept what loads."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from runner.models import schemas

GOOD = Path(__file__).resolve().parents[2] / "data" / "good"


def schema(name: str) -> dict:
    return json.loads((schemas.SCHEMA_DIR / name).read_text())


def test_committed_schemas_are_current() -> None:
    assert schemas.stale() == [], "run: python -m runner.models.schemas"


def test_check_mode_reports_a_stale_schema(tmp_path: Path) -> None:
    schemas.write(tmp_path)
    assert schemas.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / "tasks.schema.json").write_text("{}\n")
    assert schemas.main(["--check", "--dir", str(tmp_path)]) == 1


def test_a_playbook_with_every_keyword_is_valid_against_the_playbook_schema() -> None:
    data = YAML(typ="safe", pure=True).load((GOOD / "every_keyword.yml").read_text())
    jsonschema.validate(data, schema("playbook.schema.json"))


@pytest.mark.parametrize("text", [
    "- hosts: all\n  hostz: x\n",  # unknown play keyword
    "- hosts: all\n  tasks:\n    - block: []\n      copy: {}\n",  # a module key on a block
    "- hosts: all\n  strategy: fast\n",
    "- name: no hosts\n",
])
def test_the_playbook_schema_rejects_what_the_loader_rejects(text: str) -> None:
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(YAML(typ="safe", pure=True).load(text), schema("playbook.schema.json"))


def test_role_meta_and_argument_specs_schemas() -> None:
    meta = {"galaxy_info": {"author": "x"}, "dependencies": ["common", {"role": "fw", "port": 1}]}
    jsonschema.validate(meta, schema("role-meta.schema.json"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"allow_duplicate": True}, schema("role-meta.schema.json"))
    specs = {"argument_specs": {"main": {"options": {"port": {"type": "int", "default": 80}}}}}
    jsonschema.validate(specs, schema("argument-specs.schema.json"))
