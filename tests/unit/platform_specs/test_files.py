"""validate_seed_file: a seed file read as its kind, every problem reported at file:line:col at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.errors import ExitCode, OptionError, ParseError, SourcePosition
from runner.models.validation import ParseErrors
from runner.platform_specs import NestedProvisioning, OCIRegistryConfig, validate_seed_file

MANY_MISTAKES = """\
policy:
  max_nesting_depth: 7
deployments:
  - name: web
    networks:
      - name: front
        subnet: 10.10.0.0/24
        gatway: 10.10.0.1
    volumes:
      - name: data
        mount_path: data
    parent_vms: [host-1]
    nested_vms:
      - name: vm-1
        parent_vm: host-1
        cpu: 64
        networks: [front]
        auto_start: maybe
    containers:
      - name: web-1
        parent_vm: vm-1
        memory_mb: 128
"""

BAD_NAMES = """\
deployments:
  - name: web
    networks: [{name: front, subnet: 10.10.0.0/24}]
    volumes: [{name: data, mount_path: /data}]
    parent_vms: [host-1]
    nested_vms:
      - {name: vm-1, parent_vm: hots-1, networks: [frnt], volumes: [data]}
    containers: []
"""


def write(tmp_path: Path, text: str, name: str = "nested.yml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_every_mistake_of_a_file_is_reported_at_once_at_its_place(tmp_path: Path) -> None:
    path = write(tmp_path, MANY_MISTAKES)
    with pytest.raises(ParseErrors) as caught:
        validate_seed_file(path, "nested-provisioning")
    assert [(error.position, error.message, error.hint) for error in caught.value.errors] == [
        (SourcePosition(str(path), 2, 22), "Nesting depth must be 1-5", None),
        (SourcePosition(str(path), 8, 9), "'gatway' is not a valid network keyword", "did you mean 'gateway'?"),
        (SourcePosition(str(path), 11, 21), "Mount path must be absolute", None),
        (SourcePosition(str(path), 16, 14), "CPU must be 1-32", None),
        (SourcePosition(str(path), 18, 21), "expected a boolean (true/false), got 'maybe'", None),
        (SourcePosition(str(path), 20, 9), "missing required keyword 'image'", None),
        (SourcePosition(str(path), 22, 20), "Memory must be at least 256MB", None),
    ]
    assert caught.value.exit_code == ExitCode.UNREACHABLE  # Ansible's exit code for a parse error


def test_names_that_do_not_resolve_are_reported_at_file_line_col(tmp_path: Path) -> None:
    path = write(tmp_path, BAD_NAMES)
    with pytest.raises(ParseErrors) as caught:
        validate_seed_file(path, "nested-provisioning")
    assert caught.value.render(with_excerpt=False).splitlines() == [
        f"ERROR: {path}:7:33: parent VM 'hots-1' of 'vm-1' is not defined: name one of parent_vms or a nested VM "
        "(did you mean 'host-1'?)",
        f"ERROR: {path}:7:52: network 'frnt' is not defined in deployment 'web' (did you mean 'front'?)",
    ]


def test_one_problem_is_raised_as_itself_with_the_offending_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deployment: local\ntype: zot\nendpoint: localhost\nnamespaces: {}\n", "registry.yml")
    with pytest.raises(ParseError) as caught:
        validate_seed_file(path, "oci-registry-config")
    assert not isinstance(caught.value, ParseErrors)
    assert caught.value.render().splitlines() == [
        f"ERROR: {path}:1:13: Config must match deployment type",
        "    deployment: local",
        "                ^",
    ]


def test_a_valid_file_is_returned_as_its_model(tmp_path: Path) -> None:
    document = validate_seed_file(write(tmp_path, BAD_NAMES.replace("hots-1", "host-1").replace("[frnt]", "[front]")),
                                  "nested-provisioning")
    assert isinstance(document, NestedProvisioning)
    assert document.deployments[0].nested_vms[0].networks == ["front"]
    registry = validate_seed_file(write(tmp_path, "deployment: disabled\ntype: harbor\nendpoint: h\nnamespaces: {}\n"),
                                  "oci-registry-config")
    assert isinstance(registry, OCIRegistryConfig) and registry.type == "harbor"


def test_an_unknown_kind_is_a_bad_option_with_a_did_you_mean(tmp_path: Path) -> None:
    with pytest.raises(OptionError) as caught:
        validate_seed_file(tmp_path / "missing.yml", "golden-image-confg")
    assert caught.value.message == "unknown seed kind 'golden-image-confg'"
    assert caught.value.hint == "did you mean 'golden-image-config'?"
    assert caught.value.exit_code == ExitCode.BAD_OPTIONS


@pytest.mark.parametrize(("text", "line", "column", "message"), [
    ("", None, None, "expected a mapping of nested provisioning document keywords, got an empty value"),
    ("- a\n- b\n", 1, 1, "expected a mapping of nested provisioning document keywords, got a list"),
])
def test_a_file_that_is_not_a_mapping_says_so(tmp_path: Path, text: str, line: int | None, column: int | None,
                                              message: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ParseError) as caught:
        validate_seed_file(path, "nested-provisioning")
    assert (caught.value.position, caught.value.message) == (SourcePosition(str(path), line, column), message)


def test_a_yaml_syntax_error_is_a_parse_error_at_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "deployments:\n  - name: web\n    networks: [\n")
    with pytest.raises(ParseError) as caught:
        validate_seed_file(path, "nested-provisioning")
    assert caught.value.message.startswith("YAML parsing failed: ")
    assert caught.value.position.path == str(path) and caught.value.position.line >= 3


def test_a_missing_file_is_a_parse_error(tmp_path: Path) -> None:
    with pytest.raises(ParseError, match="file not found"):
        validate_seed_file(tmp_path / "missing.yml", "nested-provisioning")


def test_the_document_example_of_the_docs_reads(tmp_path: Path) -> None:
    docs = (Path(__file__).resolve().parents[3] / "docs" / "schemas.md").read_text()
    example = docs.split("### The nested provisioning document", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    document = validate_seed_file(write(tmp_path, example), "nested-provisioning",
                                  taskservs={"containerd", "kubernetes"})
    assert document.deployments[0].containers[0].volumes == [{"data": "/srv"}]
