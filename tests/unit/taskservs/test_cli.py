"""``provisioning-infra`` without servers: the resolved order (deps), validation of infra and seed files with every
problem at file:line:col, taskservs per server, and the refusals that come before anything is touched."""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from runner.cli.infra import main
from tests.support.taskserv_infra import CONFIG, INFRA, write_infra

ENV = {"PROVISIONING_CONFIG": str(CONFIG), "PROVISIONING_INFRA": None}


def run(*args: str, cwd: Path | None = None) -> Any:
    """The command's result, run in ``cwd`` (a fresh directory inside it, as a user's working directory)."""
    if cwd is None:
        return CliRunner().invoke(main, list(args), env=ENV)
    with tempfile.TemporaryDirectory(dir=cwd) as workdir, contextlib.chdir(workdir):
        return CliRunner().invoke(main, list(args), env=ENV)


@pytest.fixture
def infra(tmp_path: Path) -> Path:
    return write_infra(tmp_path, tmp_path / "state")


def test_deps_prints_the_install_order_with_versions_and_reasons() -> None:
    result = run("deps", "mirror")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "os 1.0.0", "files 1.2.0 (required by webdir)", "webdir 0.3.0 (required by mirror)", "mirror 2.0.0"]


def test_deps_of_an_unknown_taskserv() -> None:
    result = run("deps", "mirorr")
    assert result.exit_code == 4
    assert "The role 'mirorr' was not found in: " in result.output and "did you mean 'mirror'?" in result.output


def test_validate_a_valid_infra(infra: Path) -> None:
    result = run("validate", str(infra))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"{infra}: infra 'itest' is valid (2 servers, 1 clusters)"


def test_validate_reports_every_schema_problem_of_an_infra(tmp_path: Path) -> None:
    text = INFRA.replace("    labels: [web]\n", "    labels: [web]\n    plann: big\n").replace(
        "servers: [it-web1, it-db1]", "servers: [it-web1, it-db2]")
    infra = write_infra(tmp_path, tmp_path / "state", text=text)
    result = run("validate", str(infra))
    assert result.exit_code == 4
    errors = [line for line in result.output.splitlines() if line.startswith("ERROR: ")]
    assert errors == [
        f"ERROR: {infra}:8:5: 'plann' is not a valid local server keyword",
        f"ERROR: {infra}:16:24: cluster 'farm' names an unknown server 'it-db2' (did you mean 'it-db1'?)",
    ]


def test_validate_reports_every_taskserv_problem_of_an_infra(tmp_path: Path) -> None:
    text = INFRA.replace("taskservs: [webdir]", "taskservs: [webdri]").replace("taskservs: [mirror]",
                                                                             "taskservs: [mirror, otherweb]")
    (tmp_path / "roles" / "otherweb" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "otherweb" / "tasks" / "main.yml").write_text("- ping:\n")
    infra = write_infra(tmp_path, tmp_path / "state", text=text)
    result = run("validate", str(infra))
    assert result.exit_code == 4
    errors = [line for line in result.output.splitlines() if line.startswith("ERROR: ")]
    assert errors[0].startswith(f"ERROR: {infra}:8:17: The role 'webdri' was not found in: ")
    assert errors[1:] == [f"ERROR: {infra}:16:25: taskservs 'webdir' and 'otherweb' conflict on '{host}'"
                          for host in ("it-web1", "it-db1")]  # the cluster's mirror requires webdir


def test_validate_a_seed_file_by_its_modeline_or_kind(tmp_path: Path) -> None:
    image = tmp_path / "image.yml"
    image.write_text("# yaml-language-server: $schema=../schemas/seeds/golden-image-config.schema.json\n"
                     "name: web-node\ntaskservs: [webdir, kubelet]\n")
    result = run("validate", str(image))
    assert result.exit_code == 4
    assert f"ERROR: {image}:3:21: taskserv 'kubelet' is not defined" in result.output
    image.write_text("name: web-node\ntaskservs: [webdir]\n")
    assert run("validate", str(image), "--kind", "golden-image-config").output.strip() == (
        f"{image}: golden-image-config is valid")
    result = run("validate", str(image))
    assert result.exit_code == 5 and "name its seed kind with --kind" in result.output


def test_taskserv_list_per_server_in_install_order(infra: Path) -> None:
    result = run("taskserv", "list", "--infra", str(infra))
    assert result.output.splitlines() == ["it-web1: os, files, webdir, mirror", "it-db1: os, files, webdir, mirror"]
    assert run("taskserv", "list", "--infra", str(infra), "--server", "it-db1").output.splitlines() == [
        "it-db1: os, files, webdir, mirror"]


def test_a_deletion_is_not_done_without_a_yes_where_nobody_can_be_asked(tmp_path: Path, infra: Path) -> None:
    result = run("server", "delete", "--infra", str(infra))
    assert result.exit_code == 5
    assert "Delete every server of the infra? Not asked (no terminal): pass --yes to go ahead" in result.output
    assert not (tmp_path / "state").exists()


def test_unknown_servers_and_clusters_are_named(infra: Path) -> None:
    result = run("server", "create", "it-web2", "--infra", str(infra))
    assert result.exit_code == 5
    assert "infra 'itest' has no server 'it-web2' (did you mean 'it-web1'?)" in result.output
    result = run("cluster", "create", "frm", "--infra", str(infra))
    assert "infra 'itest' has no cluster 'frm' (did you mean 'farm'?)" in result.output


def test_a_taskserv_without_a_delete_entry_point_cannot_be_deleted(infra: Path) -> None:
    result = run("taskserv", "delete", "os", "--infra", str(infra), "--yes")
    assert result.exit_code == 4
    assert "taskserv 'os' cannot be deleted: its role has no tasks/delete.yml" in result.output


def test_the_infra_is_the_one_file_in_infra_when_not_named(tmp_path: Path) -> None:
    result = run("taskserv", "list", cwd=tmp_path)
    assert result.exit_code == 5 and "name the infra with --infra FILE" in result.output
