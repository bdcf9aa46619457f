"""The compatibility harness on a small targets tree of its own: aliases to reasons and groups, what is copied
beside a target, the playbook of a role target, the shims (no download, no hosts)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bench.compat.runners import Runner
from bench.compat.selection import classify, exclusion_reason, group_of
from bench.compat.targets import TargetSet
from bench.compat.workspace import Workspace


def make_target(root: Path, name: str, aliases: str = "shippable/posix/group1\n", script: bool = False,
                meta: str = "") -> None:
    target = root / name
    (target / "tasks").mkdir(parents=True)
    (target / "tasks" / "main.yml").write_text("- debug: msg=hi\n")
    if aliases:
        (target / "aliases").write_text(aliases)
    if script:
        (target / "runme.sh").write_text("#!/bin/sh\nansible-playbook play.yml -i ../../inventory\n")
        (target / "runme.sh").chmod(0o755)
    if meta:
        (target / "meta").mkdir()
        (target / "meta" / "main.yml").write_text(meta)


@pytest.fixture
def targets(tmp_path: Path) -> TargetSet:
    root = tmp_path / "test" / "integration" / "targets"
    make_target(root, "copy", "needs/root\nshippable/posix/group2\ndestructive\n",
                meta="dependencies:\n  - prepare_tests\n  - setup_remote_tmp_dir\n")
    make_target(root, "prepare_tests", aliases="")
    make_target(root, "setup_remote_tmp_dir", aliases="", meta="dependencies:\n  - setup_nobody\n")
    make_target(root, "setup_nobody", aliases="")
    make_target(root, "lookup_items", "shippable/posix/group1\ngather_facts/no\n")
    make_target(root, "handlers", "shippable/posix/group3\ncontext/controller\nneeds/target/setup_nobody\n",
                script=True)
    make_target(root, "win_copy", "shippable/windows/group1\nwindows\n")
    make_target(root, "cli_heavy", "shippable/posix/group1\ndestructive\n", script=True)
    make_target(root, "aws_thing", "cloud/aws\nshippable/posix/group1\n")
    make_target(root, "old", "disabled\n")
    return TargetSet(root)


def test_reasons_come_from_aliases(targets: TargetSet) -> None:
    assert exclusion_reason(targets["copy"]) is None  # destructive to the test host only: it applies
    assert exclusion_reason(targets["win_copy"]) == "needs Windows"
    assert "cloud/aws" in exclusion_reason(targets["aws_thing"])
    assert "disabled" in exclusion_reason(targets["old"])
    assert "destructive to the controller" in exclusion_reason(targets["cli_heavy"])
    assert "support role" in exclusion_reason(targets["setup_nobody"])


def test_every_target_is_either_in_a_group_or_left_out_with_a_reason(targets: TargetSet) -> None:
    groups, excluded = classify(targets)
    grouped = [name for names in groups.values() for name in names]
    assert sorted(grouped + list(excluded)) == sorted(target.name for target in targets)
    assert group_of(targets["lookup_items"]) == "lookups" and group_of(targets["copy"]) == "file_modules"
    assert "handlers" in groups["engine"]


def test_dependencies_follow_meta_needs_target_and_their_own_dependencies(targets: TargetSet) -> None:
    assert targets.dependencies(targets["copy"]) == ["prepare_tests", "setup_nobody", "setup_remote_tmp_dir"]
    assert targets.dependencies(targets["handlers"]) == ["setup_nobody"]
    assert targets.dependencies(targets["lookup_items"]) == []


def test_a_role_target_becomes_ansible_tests_play_with_its_dependencies_beside_it(targets: TargetSet,
                                                                                  tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    workspace = Workspace.create(targets["lookup_items"], targets, work)
    command, cwd = workspace.command(targets["lookup_items"])
    assert command[:2] == ["ansible-playbook", "lookup_items-compat.yml"] and cwd == workspace.integration_dir
    play = json.loads((cwd / command[1]).read_text())[0]
    assert play == {"hosts": "testhost", "gather_facts": False, "vars_files": [],
                    "vars": {"output_dir": str(workspace.output_dir)}, "roles": ["lookup_items"]}
    copied = Workspace.create(targets["copy"], targets, work)
    assert sorted(path.name for path in copied.targets_dir.iterdir()) == [
        "copy", "prepare_tests", "setup_nobody", "setup_remote_tmp_dir"]


def test_a_runme_target_runs_in_its_own_directory_with_ansible_tests_variables(targets: TargetSet,
                                                                               tmp_path: Path) -> None:
    workspace = Workspace.create(targets["handlers"], targets, tmp_path)
    command, cwd = workspace.command(targets["handlers"])
    assert command == ["./runme.sh"] and cwd == workspace.targets_dir / "handlers"
    runner = Runner("ours", Path(sys.executable).parent)
    env = workspace.environment(targets["handlers"], runner, tmp_path / "bin", {"PATH": "/usr/bin"})
    assert env["OUTPUT_DIR"] == str(workspace.output_dir) and env["INVENTORY_PATH"] == str(workspace.inventory)
    assert env["PATH"].startswith(str(tmp_path / "bin")) and env["ANSIBLE_INVENTORY"] == "/dev/null"
    assert "ANSIBLE_ROLES_PATH" not in env  # ansible-test sets it for role targets only


def test_shims_call_our_commands_and_say_which_we_do_not_have(tmp_path: Path) -> None:
    bin_dir = tmp_path / "venv-bin"
    bin_dir.mkdir()
    (bin_dir / "provisioning-playbook").write_text("#!/bin/sh\necho ours \"$@\"\n")
    (bin_dir / "provisioning-playbook").chmod(0o755)
    shims = Runner("ours", bin_dir).write_shims(tmp_path / "shims")
    ran = subprocess.run([str(shims / "ansible-playbook"), "site.yml", "-v"], capture_output=True, text=True)
    assert ran.stdout == "ours site.yml -v\n"
    missing = subprocess.run([str(shims / "ansible-vault")], capture_output=True, text=True)
    assert missing.returncode == 1 and "not provided by the ours runner" in missing.stderr


def test_both_runners_get_ansible_tests_settings(targets: TargetSet, tmp_path: Path) -> None:
    workspace = Workspace.create(targets["handlers"], targets, tmp_path)
    python_dir = Path(sys.executable).parent
    ours = workspace.environment(targets["handlers"], Runner("ours", python_dir), tmp_path, {"PATH": "/usr/bin"})
    theirs = workspace.environment(targets["handlers"], Runner("ansible", python_dir), tmp_path, {"PATH": "/bin"})
    assert ours["ANSIBLE_HOST_PATTERN_MISMATCH"] == theirs["ANSIBLE_HOST_PATTERN_MISMATCH"] == "error"


def test_an_address_off_this_machine_becomes_an_unused_loopback_one(targets: TargetSet, tmp_path: Path) -> None:
    inventory = targets["lookup_items"].path / "inventory"
    inventory.write_text("nonexistent ansible_host=169.254.199.200\n")
    (targets["lookup_items"].path / "blob.bin").write_bytes(b"\xff\xfe169.254.199.200")
    work = tmp_path / "work"
    work.mkdir()
    workspace = Workspace.create(targets["lookup_items"], targets, work)
    copied = workspace.targets_dir / "lookup_items"
    assert (copied / "inventory").read_text() == "nonexistent ansible_host=127.0.0.254\n"
    assert (copied / "blob.bin").read_bytes() == b"\xff\xfe169.254.199.200"  # not text: left as it is
    assert "169.254.199.200" in inventory.read_text()  # the sdist's own copy is untouched


def test_each_ansible_core_version_has_its_own_regression_list() -> None:
    from bench.compat.__main__ import EXPECTED_FILE, expected_file, read_expected
    from bench.compat.sdist import ANSIBLE_CORE_VERSION

    assert expected_file() == expected_file(ANSIBLE_CORE_VERSION) == EXPECTED_FILE
    assert expected_file("2.21.5").name == "expected-2.21.5.txt"
    assert read_expected("2.21.5") and set(read_expected("2.21.5")) != set(read_expected())
    with pytest.raises(SystemExit):
        read_expected("0.0.1")  # no list: a bad option, never an empty run


class _EveryTarget:
    """A target set that has every name, of the pinned version: enough to choose targets from the lists."""

    def __contains__(self, name: object) -> bool:
        return True

    @property
    def version(self) -> str:
        from bench.compat.sdist import ANSIBLE_CORE_VERSION

        return ANSIBLE_CORE_VERSION


def test_expected_with_a_group_runs_that_groups_expected_targets_only() -> None:
    from bench.compat.__main__ import chosen_targets, parse_args, read_expected
    from bench.compat.selection import load_selection, selection_file

    every = _EveryTarget()
    lookups = set(load_selection(selection_file(every.version))["lookups"])
    chosen = chosen_targets(parse_args(["--expected", "--group", "lookups"]), every)  # type: ignore[arg-type]
    assert chosen and set(chosen) <= lookups
    assert chosen == [name for name in read_expected() if name in lookups]
    assert len(chosen_targets(parse_args(["--expected"]), every)) == len(read_expected())  # type: ignore[arg-type]
