"""What the Ansible flags added to the commands do, run as the commands (local connection, no test host)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from runner.cli.options import module_path_override
from runner.secrets.errors import PasswordSourceError
from runner.secrets.passwords import read_password_file

BIN = Path(sys.executable).parent
LOCAL = ["-i", "localhost,", "-c", "local"]


def run(tmp_path: Path, program: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(tmp_path), "PROVISIONING_RECORD_RUNS": "false"}
    for name in ("PROVISIONING_CONFIG", "ANSIBLE_CONFIG"):
        env.pop(name, None)
    return subprocess.run([str(BIN / program), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                          input=stdin, timeout=300, check=False)


@pytest.mark.parametrize("program", ["provisioning-playbook", "provisioning", "provisioning-inventory"])
def test_version_names_the_program_config_file_and_python(tmp_path: Path, program: str) -> None:
    (tmp_path / "ansible.cfg").write_text("[defaults]\nlibrary = ./lib\n")
    done = run(tmp_path, program, "--version")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{program} [provisioning ")
    assert f"  config file = {tmp_path / 'ansible.cfg'}" in lines
    assert f"  configured module search path = ['{tmp_path / 'lib'}']" in lines
    assert any(line.startswith("  python version = 3.") for line in lines)
    # the lines Ansible has, in its order
    keys = [line.split(" = ")[0].strip() for line in lines[1:]]
    assert keys[:7] == ["config file", "configured module search path", "provisioning python module location",
                        "provisioning collection location", "executable location", "python version", "jinja version"]
    assert any(line.startswith("  pyyaml version = ") and "libyaml" in line for line in lines)


def test_tree_writes_each_hosts_result_as_json(tmp_path: Path) -> None:
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "command", "-a", "echo hi", "--tree", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads((tmp_path / "out" / "localhost").read_text())
    assert (result["stdout"], result["rc"], result["changed"]) == ("hi", 0, True)


def test_a_tree_directory_that_cannot_be_made_is_a_bad_option(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "ping", "-t", "file/out")
    assert done.returncode == 5
    assert "--tree file/out: cannot create the directory" in done.stderr


def test_task_timeout_fails_a_module_that_runs_too_long(tmp_path: Path) -> None:
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "command", "-a", "sleep 30",
               "--task-timeout", "1")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Timed out after 1 second(s)." in done.stdout


def test_become_password_file_that_does_not_exist_is_a_clear_error(tmp_path: Path) -> None:
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "ping", "--become-password-file", "nope")
    assert done.returncode == 1
    assert "the BECOME password file nope was not found" in done.stderr
    assert "Traceback" not in done.stderr


def test_password_files_are_read_or_run(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_text("  s3cret\n")
    script = tmp_path / "script"
    script.write_text("#!/bin/sh\necho from-script\n")
    script.chmod(0o755)
    failing = tmp_path / "failing"
    failing.write_text("#!/bin/sh\necho no way >&2\nexit 3\n")
    failing.chmod(0o755)
    assert read_password_file(str(plain), "SSH password file") == "s3cret"
    assert read_password_file(str(script), "SSH password file") == "from-script"
    with pytest.raises(PasswordSourceError, match=r"the SSH password file script .*failing exited 3: no way"):
        read_password_file(str(failing), "SSH password file")


def test_scp_extra_args_is_accepted_and_said_to_be_unused(tmp_path: Path) -> None:
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "ping", "--scp-extra-args", "-l 100")
    assert done.returncode == 0, done.stderr
    assert "[WARNING]: --scp-extra-args is not used: files travel over the agent's SSH connection" in done.stderr


def test_module_path_goes_before_the_configured_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PROVISIONING_LIBRARY", str(tmp_path / "configured"))
    assert module_path_override({"module_path": (f"a{os.pathsep}b", "c")}) == ["a", "b", "c",
                                                                                str(tmp_path / "configured")]
    assert module_path_override({"module_path": ()}) is None


INVENTORY = "[web]\nweb1 ansible_host=10.0.0.1\nweb2\n[prod:children]\nweb\n"


def test_inventory_output_toml_yaml_and_list_hosts(tmp_path: Path) -> None:
    (tmp_path / "hosts").write_text(INVENTORY)
    done = run(tmp_path, "provisioning-inventory", "-i", "hosts", "--list", "--output", "inv.json")
    assert done.returncode == 0 and done.stdout == "", done.stderr
    assert json.loads((tmp_path / "inv.json").read_text())["prod"] == {"children": ["web"]}
    toml = run(tmp_path, "provisioning-inventory", "--inventory-file", "hosts", "--list", "--toml")
    assert toml.returncode == 0, toml.stderr
    import tomllib

    assert tomllib.loads(toml.stdout) == {"prod": {"children": ["web"]},
                                          "web": {"hosts": {"web1": {"ansible_host": "10.0.0.1"}, "web2": {}}}}
    yaml = run(tmp_path, "provisioning-inventory", "-i", "hosts", "--host", "web1", "-y")
    assert yaml.stdout == "ansible_host: 10.0.0.1\n"
    listed = run(tmp_path, "provisioning-inventory", "-i", "hosts", "--list-hosts", "-l", "web2")
    assert listed.stdout == "  hosts (1):\n    web2\n"
    # on stdout, as ansible-inventory's: the configuration file from -v, each source read from -vvv
    verbose = run(tmp_path, "provisioning-inventory", "-i", "hosts", "--graph", "-v")
    assert verbose.stdout.startswith(("Using ", "No config file found")) and "Parsed" not in verbose.stdout
    assert verbose.stderr == ""
    verbose = run(tmp_path, "provisioning-inventory", "-i", "hosts", "--graph", "-vvv")
    assert f"Parsed {tmp_path / 'hosts'} inventory source\n@all:" in verbose.stdout


def test_a_module_from_module_path_runs(tmp_path: Path) -> None:
    (tmp_path / "mods").mkdir()
    (tmp_path / "mods" / "myping.py").write_text((Path(__file__).parents[3] / "modules" / "ping.py").read_text())
    done = run(tmp_path, "provisioning", "localhost", *LOCAL, "-M", "mods", "-m", "myping", "-a", "data=hi")
    assert done.returncode == 0, done.stdout + done.stderr
    assert '"ping": "hi"' in done.stdout
    assert run(tmp_path, "provisioning", "localhost", *LOCAL, "-m", "myping").returncode == 1  # not found without -M


@pytest.mark.parametrize("program", ["provisioning-playbook", "provisioning"])
def test_v_names_the_configuration_file_first_on_stdout(tmp_path: Path, program: str) -> None:
    """ansible-core's first -v line: ``No config file found; using defaults``, or the file it read."""
    (tmp_path / "site.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks:\n    - ping:\n")
    command = ["site.yml"] if program == "provisioning-playbook" else ["all", "-m", "ping"]
    quiet = run(tmp_path, program, *command, *LOCAL)
    assert quiet.returncode == 0 and "config file" not in quiet.stdout + quiet.stderr, quiet.stdout + quiet.stderr
    verbose = run(tmp_path, program, *command, *LOCAL, "-v")
    assert verbose.stdout.startswith("No config file found; using defaults\n"), verbose.stdout + verbose.stderr
    (tmp_path / "ansible.cfg").write_text("[defaults]\n")
    configured = run(tmp_path, program, *command, *LOCAL, "-v")
    assert configured.stdout.startswith(f"Using {tmp_path / 'ansible.cfg'} as config file\n"), configured.stdout
    assert "config file" not in configured.stderr
