"""YAML aliases: shared values load as they are written, and a document they would multiply past the bound (the
"billion laughs" alias bomb) is refused at its file:line:col, in bounded time and memory, whatever reads it."""

from __future__ import annotations

import os
import resource
import subprocess
from pathlib import Path

import pytest

from runner.errors import ParseError
from runner.loader.aliases import MAX_ALIAS_VALUES
from runner.loader.yaml import load_yaml_text
from runner.templating import Templar, TemplateError
from tests.support.scripts import script

MEMORY_LIMIT = 1 << 30  # 1 GiB of address space: a bomb that expands dies here instead of taking the machine


def bomb(levels: int, indent: str = "") -> str:
    """Nested aliases: ``a0`` holds ten strings, each next level ten aliases of the one before, ``j`` the last."""
    lines = [f'{indent}a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"{indent}a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 10) + "]" for level in range(1, levels)]
    return "\n".join([*lines, f"{indent}j: *a{levels - 1}"]) + "\n"


def test_aliases_load_as_shared_values_and_merges_still_work() -> None:
    data = load_yaml_text("base: &base {port: 80, tags: &tags [a, b]}\nweb: *base\n"
                          "db: {<<: *base, port: 5432}\nmore: [*tags, *tags]\n")
    assert data["web"] is data["base"] and data["more"][0] is data["more"][1] is data["base"]["tags"]
    assert data["db"] == {"port": 5432, "tags": ["a", "b"]}


def test_aliases_that_add_up_to_the_bound_are_accepted() -> None:
    data = load_yaml_text(bomb(5))  # ~111,000 values once expanded: a large but honest document
    assert len(data["j"]) == 10 and data["j"][0] is data["a3"]


def test_an_alias_bomb_is_refused_at_the_anchor_that_multiplies() -> None:
    with pytest.raises(ParseError) as raised:
        load_yaml_text(bomb(9), "vars/bomb.yml")
    error = raised.value
    assert (error.position.path, error.position.line, error.position.column) == ("vars/bomb.yml", 9, 5)
    assert "YAML aliases expand this document to 2,345,679,021 values from the 111 it writes, more than the " \
           f"{MAX_ALIAS_VALUES:,} that aliases may add (an alias bomb?)" in error.message


def test_a_value_that_contains_itself_is_refused() -> None:
    with pytest.raises(ParseError, match="refers to a value that contains it") as raised:
        load_yaml_text("x: 1\nloop: &loop [1, *loop]\n", "loop.yml")
    assert str(raised.value.position) == "loop.yml:2:7"


def test_text_that_only_looks_like_an_anchor_loads_as_text() -> None:
    assert load_yaml_text("cmd: a &b *c\nglob: '*.conf'\n") == {"cmd": "a &b *c", "glob": "*.conf"}


def test_from_yaml_measures_its_input_as_files_are() -> None:
    templar = Templar({"text": bomb(9), "honest": bomb(3)})
    assert templar.template("{{ (honest | from_yaml).j | length }}") == 10
    with pytest.raises(TemplateError, match=r"^ERROR: from_yaml: YAML aliases expand this document to 2,345,679,021"):
        templar.template("{{ (text | from_yaml).j | length }}")
    with pytest.raises(TemplateError, match=r"^ERROR: from_yaml_all: YAML aliases expand"):
        templar.template("{{ ('a: 1\n---\n' ~ text) | from_yaml_all }}")


# --- through the commands, in a subprocess that may not grow past MEMORY_LIMIT ----------------------------------


def run_limited(tmp_path: Path, *command: str) -> subprocess.CompletedProcess[str]:
    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))

    environment = {key: value for key, value in os.environ.items() if not key.startswith(("PROVISIONING_", "ANSIBLE_"))}
    environment["PROVISIONING_CONFIG"] = str(tmp_path / "provisioning.cfg")
    (tmp_path / "provisioning.cfg").write_text("[defaults]\nforks = 1\n")
    return subprocess.run([script(command[0]), *command[1:]], capture_output=True, text=True, cwd=tmp_path,
                          env=environment, timeout=180, preexec_fn=limit_memory)


PLAY = """- hosts: localhost
  gather_facts: false
  connection: local
  vars_files: [{vars_file}]
  tasks:
    - debug:
        msg: "{{{{ j | length }}}}"
"""


def assert_refused(result: subprocess.CompletedProcess[str], where: str) -> None:
    assert result.returncode == 4, (result.returncode, result.stdout, result.stderr)
    assert f"ERROR: {where}: YAML aliases expand this document to" in result.stderr
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stdout + result.stderr


def test_a_vars_file_bomb_is_refused_before_anything_runs(tmp_path: Path) -> None:
    (tmp_path / "bomb.yml").write_text(bomb(9))
    (tmp_path / "play.yml").write_text(PLAY.format(vars_file="bomb.yml"))
    result = run_limited(tmp_path, "provisioning-playbook", "-i", "localhost,", "play.yml")
    assert_refused(result, f"{tmp_path / 'bomb.yml'}:9:5")
    assert "TASK" not in result.stdout


def test_a_vars_file_with_aliases_below_the_bound_runs_as_in_ansible(tmp_path: Path) -> None:
    (tmp_path / "vars.yml").write_text(bomb(5))
    (tmp_path / "play.yml").write_text(PLAY.format(vars_file="vars.yml"))
    result = run_limited(tmp_path, "provisioning-playbook", "-i", "localhost,", "play.yml")
    assert result.returncode == 0, (result.stdout, result.stderr)
    assert '"msg": 10' in result.stdout


def test_a_playbook_bomb_is_refused(tmp_path: Path) -> None:
    (tmp_path / "play.yml").write_text("- hosts: localhost\n  gather_facts: false\n  vars:\n" + bomb(9, "    ") +
                                       "  tasks:\n    - debug: {msg: '{{ j | length }}'}\n")
    result = run_limited(tmp_path, "provisioning-playbook", "-i", "localhost,", "play.yml", "--syntax-check")
    assert_refused(result, f"{tmp_path / 'play.yml'}:12:9")


def test_an_inventory_bomb_is_refused(tmp_path: Path) -> None:
    # an unreadable inventory source is Ansible's warning (any_unparsed_is_failed makes it an error)
    (tmp_path / "hosts.yml").write_text("all:\n  hosts:\n    web1:\n  vars:\n" + bomb(9, "    "))
    result = run_limited(tmp_path, "provisioning-inventory", "-i", "hosts.yml", "--list")
    assert result.returncode == 0, (result.returncode, result.stdout, result.stderr)
    assert (f"[WARNING]: Failed to parse inventory with 'yaml' plugin: {tmp_path / 'hosts.yml'}:13:9: YAML aliases "
            "expand this document to") in result.stderr
    assert "Traceback" not in result.stderr and "MemoryError" not in result.stdout + result.stderr


def test_a_group_vars_bomb_is_refused(tmp_path: Path) -> None:
    (tmp_path / "hosts.ini").write_text("[web]\nweb1\n")
    (tmp_path / "group_vars").mkdir()
    (tmp_path / "group_vars" / "web.yml").write_text(bomb(9))
    result = run_limited(tmp_path, "provisioning-inventory", "-i", "hosts.ini", "--host", "web1")
    assert_refused(result, f"{tmp_path / 'group_vars' / 'web.yml'}:9:5")
