"""``provisioning-config dump / list / view`` through click's test runner."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from runner.cli.config import main
from runner.config import SETTINGS


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    path = tmp_path / "project"
    path.mkdir()
    monkeypatch.chdir(path)
    for name in [n for s in SETTINGS for n in s.env_names] + ["PROVISIONING_CONFIG"]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(home))
    return path


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


def test_dump_prints_every_setting_with_its_origin(project: Path) -> None:
    cfg = project / "provisioning.cfg"
    cfg.write_text("[defaults]\nforks = 12\ninventory = hosts\n")
    result = run("dump", env={"PROVISIONING_BECOME": "yes"})
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == len(SETTINGS)
    assert f"forks({cfg}:2) = 12" in lines
    assert f"inventory({cfg}:3) = ['{project / 'hosts'}']" in lines
    assert "become(env: PROVISIONING_BECOME) = True" in lines
    assert "become_method(default) = sudo" in lines
    assert "remote_user(default) = None" in lines


def test_dump_only_changed(project: Path) -> None:
    cfg = project / "provisioning.cfg"
    cfg.write_text("[defaults]\nforks = 12\ngathering = implicit\n")
    result = run("dump", "--only-changed")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"forks({cfg}:2) = 12"]


def test_dump_with_an_explicit_file(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.cfg"
    other.write_text("[privilege_escalation]\nbecome_user = app\n")
    result = run("--config", str(other), "dump", "--only-changed")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"become_user({other}:2) = app"]


def test_a_bad_config_is_one_message_with_its_exit_code(project: Path) -> None:
    cfg = project / "provisioning.cfg"
    cfg.write_text("[defaults]\nforks = lots\n")
    result = run("dump")
    assert result.exit_code == 5
    assert result.output.startswith(f"ERROR: {cfg}:2:9: bad value for 'forks': expected an integer, got 'lots'")
    assert "forks = lots" in result.output  # the offending line is shown
    assert "Traceback" not in result.output


def test_list_describes_every_setting(project: Path) -> None:
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "forks:\n  description: Worker processes" in result.output
    assert "  type: int\n  default: 5\n  ini: [defaults] forks\n  env: PROVISIONING_FORKS, ANSIBLE_FORKS\n" \
        in result.output
    assert "  choices: sudo, su\n" in result.output
    assert "  ini: [defaults] interpreter_python, [defaults] interpreter\n" in result.output
    assert result.output.count("  description: ") == len(SETTINGS)


def test_view_prints_the_file_in_use(project: Path) -> None:
    cfg = project / "provisioning.cfg"
    cfg.write_text("[defaults]\nforks = 3\n")
    result = run("view")
    assert result.exit_code == 0, result.output
    assert result.output == f"# {cfg}\n[defaults]\nforks = 3\n"


def test_view_without_a_file_says_where_it_looked(project: Path) -> None:
    if Path("/etc/provisioning/provisioning.cfg").exists():
        pytest.skip("this machine has a system-wide configuration")
    result = run("view")
    assert result.exit_code == 1
    assert "no configuration file found (searched" in result.output
    assert str(project / "provisioning.cfg") in result.output


def test_the_example_project_config_loads(project: Path) -> None:
    example = Path(__file__).resolve().parents[3] / "provisioning.cfg"
    result = run("--config", str(example), "dump", "--only-changed")
    assert result.exit_code == 0, result.output
    root = example.parent
    assert any(line.startswith("inventory(") and str(root / "inventories" / "local") in line
               for line in result.output.splitlines())
    assert any(line.startswith("roles_path(") and str(root / "roles") in line for line in result.output.splitlines())


def test_the_config_file_is_also_taken_after_the_subcommand_as_ansible_config_takes_it(project: Path,
                                                                                     tmp_path: Path) -> None:
    other = tmp_path / "other.cfg"
    other.write_text("[defaults]\nremote_user = admin\n")
    viewed = run("view", "-c", str(other))
    assert viewed.exit_code == 0, viewed.output
    assert "remote_user = admin" in viewed.output
    dumped = run("dump", "--config", str(other))
    assert f"remote_user({other}:2) = admin" in dumped.output.splitlines()


def test_a_missing_config_file_is_refused_in_ansible_config_words(project: Path, tmp_path: Path) -> None:
    for args in (["view", "-c", "missing.cfg"], ["-c", "missing.cfg", "dump"]):
        result = run(*args)
        assert result.exit_code != 0
        assert f"The provided configuration file is missing or not accessible: {project / 'missing.cfg'}" in (
            result.output)
        assert "Traceback" not in result.output
