"""Ad-hoc include_role/import_role/include_tasks run their tasks as a one-task play, as Ansible's do (local
connection, no test host)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
LOCAL = ["-i", "localhost,", "-c", "local"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "roles" / "greet" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "greet" / "tasks" / "main.yml").write_text('- debug: msg="hello {{ who | default(1) }}"\n')
    (tmp_path / "more.yml").write_text('- debug: msg="more {{ 2 + 3 }}"\n')
    return tmp_path


def adhoc(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(project), "PROVISIONING_RECORD_RUNS": "false"}
    for name in ("PROVISIONING_CONFIG", "ANSIBLE_CONFIG"):
        env.pop(name, None)
    return subprocess.run([str(BIN / "provisioning"), "localhost", *LOCAL, *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize(("args", "shown"), [
    (["-m", "include_role", "-a", "name=greet"], '"msg": "hello 1"'),
    (["-m", "ansible.builtin.import_role", "-a", '{"name": "greet"}', "-e", "who=you"], '"msg": "hello you"'),
    (["-m", "include_role", "-a", "role=greet", "-o"], 'localhost | SUCCESS => {"msg": "hello 1"}'),
    (["-m", "include_tasks", "-a", "more.yml"], '"msg": "more 5"'),
    (["-m", "import_tasks", "-a", "file=more.yml"], '"msg": "more 5"'),
])
def test_the_tasks_run_and_show_as_ad_hoc_results(project: Path, args: list[str], shown: str) -> None:
    done = adhoc(project, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    assert shown in done.stdout
    assert "PLAY" not in done.stdout  # the ad-hoc view, not a playbook's


def test_a_missing_role_is_an_error_naming_it(project: Path) -> None:
    done = adhoc(project, "-m", "include_role", "-a", "name=nosuch")
    # the host fails the include, as ansible-core's ad-hoc include_role fails it, with 2.21's message in its result
    assert done.returncode != 0
    assert "The role 'nosuch' was not found in: " in done.stdout


def test_the_pattern_and_module_are_templates_and_legacy_unsafe_json_is_not_rendered(project: Path) -> None:
    extra = '{"target": "localhost", "data": {"raw": {"__ansible_unsafe": "{{ 1 + 1 }}"}, "done": "{{ 1 + 1 }}"}}'
    result = subprocess.run([str(BIN / "provisioning"), "{{ target }}", *LOCAL, "-m", "{{ 'debug' }}", "-a",
                             "var=data", "-e", extra], cwd=project, capture_output=True, text=True, timeout=300,
                            env={**os.environ, "HOME": str(project), "PROVISIONING_RECORD_RUNS": "false",
                                 "_ANSIBLE_TEMPLAR_UNTRUSTED_TEMPLATE_BEHAVIOR": "warning"})
    assert result.returncode == 0, result.stderr
    assert '"raw": "{{ 1 + 1 }}"' in result.stdout and '"done": 2' in result.stdout
    assert "[WARNING]: Encountered untrusted template or expression." in result.stderr
    assert '"warnings"' not in result.stdout


def test_a_jsonfile_fact_cache_is_read_written_and_flushed_by_ad_hoc_runs(project: Path) -> None:
    cache = {"ANSIBLE_CACHE_PLUGIN": "jsonfile", "ANSIBLE_CACHE_PLUGIN_CONNECTION": str(project / "facts")}
    (project / "facts").mkdir()
    facts_defined = ["-m", "assert", "-a", '{"that": "ansible_facts.distribution is defined"}']
    with pytest.MonkeyPatch.context() as patch:
        for name, value in cache.items():
            patch.setenv(name, value)
        assert adhoc(project, *facts_defined).returncode == 2
        assert adhoc(project, "-m", "setup").returncode == 0
        assert adhoc(project, *facts_defined).returncode == 0
        flushed = adhoc(project, "--flush-cache", "-m", "debug", "-a", "msg={{ ansible_facts }}")
        assert '"msg": {}' in flushed.stdout, flushed.stdout + flushed.stderr


def test_a_lookup_in_the_arguments_finds_files_in_the_working_directory(project: Path) -> None:
    (project / "note.txt").write_text("from here\n")
    (project / "elsewhere").mkdir()
    (project / "elsewhere" / "note.txt").write_text("from there\n")
    args = ["-m", "debug", "-a", "msg={{ lookup('file', 'note.txt') }}"]
    here = adhoc(project, *args)
    assert '"msg": "from here"' in here.stdout, here.stdout + here.stderr
    # as ansible-core 2.19 does, --playbook-dir does not move where an ad-hoc lookup looks
    there = adhoc(project, *args, "--playbook-dir", str(project / "elsewhere"))
    assert '"msg": "from here"' in there.stdout, there.stdout + there.stderr
