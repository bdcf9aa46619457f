"""The plan cache: a second compile of an unchanged playbook comes from the user's cache; any change to what the
compile read or was asked misses; a damaged or foreign cache file is passed over, never trusted, never an error."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.compiler.plan_cache import compile_with_cache
from runner.config import load_config
from runner.errors import UserError
from runner.plan import ScopeKind
from runner.plan.export import plan_document
from runner.secrets.vault_format import encrypt
from runner.templating.environment import configure_plugins
from tests.support.secrets import keyring

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  vars_files: [vars.yml]
  roles: [web]
  tasks:
    - name: say
      debug:
        msg: "{{ greeting }} from {{ inventory_hostname }}"
"""


class _Outcomes(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())

    def last(self) -> str:
        return [line for line in self.lines if line.startswith(("PLAN CACHE hit", "PLAN CACHE miss"))][-1]


@pytest.fixture
def outcomes() -> Iterator[_Outcomes]:
    logger = logging.getLogger("runner.compiler.plan_cache")
    handler, level = _Outcomes(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "project"
    (root / "roles" / "web" / "tasks").mkdir(parents=True)
    (root / "site.yml").write_text(PLAYBOOK)
    (root / "vars.yml").write_text("greeting: hello\n")
    (root / "roles" / "web" / "tasks" / "main.yml").write_text("- name: web task\n  debug: msg=web\n")
    monkeypatch.chdir(root)
    return root


def compile_it(root: Path, *, extra_vars: dict[str, str] | None = None, overrides: dict[str, object] | None = None,
               enabled: bool = True, collections_path: list[Path] | None = None) -> Compiler:
    compiler = Compiler(CompileOptions(extra_vars=dict(extra_vars or {}), collections_path=collections_path or []))
    compile_with_cache(compiler, [root / "site.yml"], [], load_config(dict(overrides or {})), enabled=enabled)
    return compiler


def vars_files_values(compiler: Compiler) -> dict[str, object]:
    [scope] = [scope for scope in compiler.plan.scopes if scope.kind == ScopeKind.PLAY_VARS_FILES]
    return scope.vars


def cache_files(root: Path) -> list[Path]:
    return sorted((root.parent / "cache" / "provisioning" / "plans").glob("*.plan"))


def test_a_second_compile_of_an_unchanged_playbook_is_the_cached_plan(project: Path, outcomes: _Outcomes) -> None:
    first = compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE miss")
    second = compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE hit")
    assert plan_document(second.plan) == plan_document(first.plan)
    assert second.vars_files == first.vars_files
    [entry] = cache_files(project)
    assert entry.stat().st_mode & 0o777 == 0o600
    assert entry.parent.stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("change", ["playbook", "vars_file", "role task", "new role vars", "extra var", "config"])
def test_any_change_to_what_the_compile_read_or_was_asked_misses(project: Path, outcomes: _Outcomes,
                                                                 change: str) -> None:
    compile_it(project, extra_vars={"x": "1"})
    compile_it(project, extra_vars={"x": "1"})
    assert outcomes.last().startswith("PLAN CACHE hit")
    extra, overrides = {"x": "1"}, {}
    if change == "playbook":
        (project / "site.yml").write_text(PLAYBOOK.replace("name: say", "name: speak"))
    elif change == "vars_file":
        (project / "vars.yml").write_text("greeting: bonjour\n")
    elif change == "role task":
        (project / "roles" / "web" / "tasks" / "main.yml").write_text("- name: web task 2\n  debug: msg=web\n")
    elif change == "new role vars":  # a file appears where the compile looked and found none
        (project / "roles" / "web" / "vars").mkdir()
        (project / "roles" / "web" / "vars" / "main.yml").write_text("port: 80\n")
    elif change == "extra var":
        extra = {"x": "2"}
    else:
        overrides = {"gathering": "explicit"}
    changed = compile_it(project, extra_vars=extra, overrides=overrides)
    assert outcomes.last().startswith("PLAN CACHE miss")
    compile_it(project, extra_vars=extra, overrides=overrides)
    assert outcomes.last().startswith("PLAN CACHE hit")  # the new compile was stored
    if change == "vars_file":
        assert vars_files_values(changed) == {"greeting": "bonjour"}


@pytest.mark.parametrize("damage", ["truncated", "flipped byte", "garbage", "empty"])
def test_a_damaged_cache_file_is_a_miss_and_is_replaced(project: Path, outcomes: _Outcomes, damage: str) -> None:
    compile_it(project)
    [entry] = cache_files(project)
    data = entry.read_bytes()
    entry.write_bytes({"truncated": data[: len(data) // 2], "flipped byte": data[:-10] + bytes([data[-10] ^ 1])
                       + data[-9:], "garbage": b"\x80\x04not a plan", "empty": b""}[damage])
    compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE miss")
    compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE hit")


def test_a_cache_file_others_can_write_is_not_trusted(project: Path, outcomes: _Outcomes) -> None:
    compile_it(project)
    [entry] = cache_files(project)
    os.chmod(entry, 0o666)
    compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE miss")
    os.chmod(entry.parent, 0o777)
    compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE miss")


def test_switched_off_it_neither_reads_nor_writes(project: Path, outcomes: _Outcomes) -> None:
    compile_it(project, enabled=False)
    compile_it(project, overrides={"plan_cache": False}, enabled=False)
    assert cache_files(project) == [] and outcomes.lines == []


def test_a_compile_that_read_an_encrypted_file_is_not_stored(project: Path, outcomes: _Outcomes) -> None:
    (project / "vars.yml").write_bytes(encrypt(b"greeting: secret-hello\n", b"pw"))
    with keyring(("default", "pw")):
        compile_it(project)
    assert any(line.startswith("PLAN CACHE not stored: it read a secret") for line in outcomes.lines)
    assert cache_files(project) == []


def test_a_plan_with_dynamic_includes_is_not_stored(project: Path, outcomes: _Outcomes) -> None:
    (project / "more.yml").write_text("- debug: msg=more\n")
    (project / "site.yml").write_text(PLAYBOOK + "    - include_tasks: more.yml\n")
    compile_it(project)
    assert "PLAN CACHE not stored: it has dynamic includes, compiled at run time" in outcomes.lines
    assert cache_files(project) == []


def test_inline_vault_values_stay_encrypted_in_the_cache(project: Path, outcomes: _Outcomes) -> None:
    ciphertext = encrypt(b"secret-hello", b"pw").decode()
    indented = "".join(f"    {line}\n" for line in ciphertext.splitlines())
    (project / "vars.yml").write_text(f"greeting: !vault |\n{indented}")
    with keyring(("default", "pw")):
        first = compile_it(project)
        str(vars_files_values(first)["greeting"])  # decrypted in this process
        compile_it(project)  # stored after the value was decrypted
        second = compile_it(project)
    assert outcomes.last().startswith("PLAN CACHE hit")
    [entry] = cache_files(project)
    assert b"secret-hello" not in entry.read_bytes()
    value = vars_files_values(second)["greeting"]
    assert value.ciphertext == ciphertext


def test_a_plan_that_imports_an_infra_is_not_stored(project: Path, outcomes: _Outcomes) -> None:
    repository = Path(__file__).resolve().parents[3]
    compiler = Compiler(CompileOptions(roles_path=[repository / "roles"]))
    compile_with_cache(compiler, [repository / "playbooks" / "site.yml"], [], load_config({}), enabled=True)
    assert compiler.imported_infras
    assert "PLAN CACHE not stored: it imports an infra, whose catalogues the loader does not read" in outcomes.lines
    assert cache_files(project) == []


def test_a_change_to_a_collections_runtime_yml_misses(project: Path, outcomes: _Outcomes) -> None:
    """The action groups (and redirects) a plan was compiled with are inputs of the compile."""
    demo = Path(__file__).resolve().parents[2] / "data" / "collections" / "ansible_collections" / "demo" / "tools"
    meta = project / "collections" / "ansible_collections" / "demo" / "tools" / "meta"
    meta.mkdir(parents=True)
    (meta / "runtime.yml").write_text((demo / "meta" / "runtime.yml").read_text())
    (project / "site.yml").write_text("- hosts: all\n  gather_facts: false\n  module_defaults:\n"
                                      "    group/demo.tools.printers: {msg: grouped}\n  tasks:\n    - debug:\n")

    def compile_grouped() -> Compiler:
        compiler = Compiler(CompileOptions(collections_path=[project / "collections"]))
        compile_with_cache(compiler, [project / "site.yml"], [], load_config({}), enabled=True)
        return compiler

    compile_grouped()
    assert compile_grouped().plan.tasks[-1].args == {"msg": "grouped"}
    assert outcomes.last().startswith("PLAN CACHE hit")
    (meta / "runtime.yml").write_text("action_groups:\n  printers: [ansible.builtin.ping]\n")
    assert compile_grouped().plan.tasks[-1].args == {}


FILTER = "class FilterModule:\n    def filters(self):\n        return {'shout': str.upper}\n"
TEST = "class TestModule:\n    def tests(self):\n        return {'loud': str.isupper}\n"
LOOKUP = "from ansible.plugins.lookup import LookupBase\n\nclass LookupModule(LookupBase):\n    pass\n"


@pytest.fixture
def collection(project: Path) -> Iterator[Path]:
    """A collection ``acme.tools`` with one filter plugin, under ``project/../collections``."""
    plugins = project.parent / "collections" / "ansible_collections" / "acme" / "tools" / "plugins" / "filter"
    plugins.mkdir(parents=True)
    (plugins / "text.py").write_text(FILTER.replace("shout", "whisper").replace("upper", "lower"))
    yield plugins / "text.py"
    configure_plugins()  # the compiles here set the run's collections path: the next test starts without it


@pytest.mark.parametrize("change", ["playbook filter edited", "role test removed", "role lookup edited",
                                    "playbook test folder appears", "collection filter edited"])
def test_a_plugin_edited_removed_or_added_misses(project: Path, outcomes: _Outcomes, collection: Path,
                                                 change: str) -> None:
    (project / "filter_plugins").mkdir()
    (project / "filter_plugins" / "shout.py").write_text(FILTER)
    role = project / "roles" / "web"
    (role / "test_plugins").mkdir()
    (role / "test_plugins" / "loud.py").write_text(TEST)
    (role / "lookup_plugins").mkdir()
    (role / "lookup_plugins" / "extra.py").write_text(LOOKUP)
    (project / "site.yml").write_text(PLAYBOOK.replace(
        "{{ greeting }}", "{{ greeting | shout | acme.tools.whisper }}{{ greeting is loud }}"))
    collections = [project.parent / "collections"]
    compile_it(project, collections_path=collections)
    compile_it(project, collections_path=collections)
    assert outcomes.last().startswith("PLAN CACHE hit")
    if change == "playbook filter edited":
        (project / "filter_plugins" / "shout.py").write_text(FILTER.replace("upper", "title"))
    elif change == "role test removed":
        (role / "test_plugins" / "loud.py").unlink()
    elif change == "role lookup edited":
        (role / "lookup_plugins" / "extra.py").write_text(LOOKUP.replace("pass", "run = None"))
    elif change == "playbook test folder appears":
        (project / "test_plugins").mkdir()
    else:
        collection.write_text(FILTER.replace("shout", "whisper").replace("upper", "casefold"))
    try:
        compile_it(project, collections_path=collections)
    except UserError:  # the removed test: the compile that missed the cache says so
        assert change == "role test removed"
    assert outcomes.last().startswith("PLAN CACHE miss")
