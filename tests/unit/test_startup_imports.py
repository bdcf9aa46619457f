"""Start-up cost: what a command loads before it does anything.

Each check runs in a fresh interpreter, since this test process has long imported everything.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _loaded_after(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Run ``code`` in a new interpreter; it leaves its findings in ``found`` (a dict), with sys.modules' names."""
    script = f"import json, sys\nfound = {{}}\n{code}\nfound['modules'] = sorted(sys.modules)\nprint(json.dumps(found))"
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True,
                            env={**os.environ, **(env or {})})
    return json.loads(result.stdout)


def test_help_loads_neither_the_compiler_nor_the_executor() -> None:
    modules = _loaded_after("import runner.cli.playbook, runner.cli.adhoc")["modules"]
    for heavy in ("pydantic", "jinja2", "asyncssh", "runner.compiler", "runner.models", "runner.executor.adhoc"):
        assert heavy not in modules, heavy


def test_playbook_models_build_only_what_every_run_reads() -> None:
    found = _loaded_after(
        "from runner.models import Play, Task, Handler, Block, HandlerBlock, RoleReference, RoleMeta, ArgumentSpecs\n"
        "from runner.models.keywords import CommonKeywords, Conditional\n"
        "from runner.models.taskserv import TaskservMeta\n"
        "found['built'] = [m.__name__ for m in (Play, Task, Handler, Block, HandlerBlock, RoleReference, RoleMeta,\n"
        "    ArgumentSpecs, CommonKeywords, Conditional, TaskservMeta) if m.__pydantic_complete__]")
    assert found["built"] == ["Play", "Task", "Handler", "Block", "HandlerBlock", "RoleReference"]
    assert "packaging" not in found["modules"]


def test_plain_files_and_output_never_load_cryptography() -> None:
    """Decryption is paid for only when something is encrypted: loading plain YAML, templating and reporting
    leave cryptography (and pyrage) unloaded."""
    modules = _loaded_after(
        "from runner.loader.yaml import load_yaml_file\n"
        "from runner.templating import Templar\n"
        "from runner.callbacks import make_callbacks\n"
        "import runner.cli.playbook, runner.cli.vault\n"
        "load_yaml_file('tests/data/playbooks/reports.yml')\n"
        "Templar({'a': 1}).template('{{ a }}')\n")["modules"]
    assert "cryptography" not in modules and "pyrage" not in modules


def test_help_syntax_check_and_the_runs_command_never_load_sqlalchemy() -> None:
    """The run records' database layer loads only when a run is recorded or read: not for --help, not for
    --syntax-check, not for provisioning-runs --help."""
    modules = _loaded_after(
        "import contextlib, io\n"
        "import runner.cli.runs, runner.records\n"
        "from runner.cli.playbook import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main.main(args=['tests/data/playbooks/reports.yml', '--syntax-check'], prog_name='p')\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    runner.cli.runs.main.main(args=['--help'], prog_name='provisioning-runs')\n")["modules"]
    assert "runner.compiler" in modules  # the syntax check did run
    assert "sqlalchemy" not in modules and "alembic" not in modules


def test_a_run_recorded_into_an_up_to_date_sqlite_database_never_loads_sqlalchemy(tmp_path: Path) -> None:
    """SQLAlchemy costs a quarter second of CPU to import: only creating or migrating the database pays it."""
    playbook = tmp_path / "ping.yml"
    playbook.write_text("- hosts: localhost\n  gather_facts: false\n  tasks:\n    - ping:\n")
    (tmp_path / "empty.cfg").write_text("[defaults]\n")
    run = (
        "import contextlib, io, os\n"
        f"os.environ.update(PROVISIONING_CONFIG={str(tmp_path / 'empty.cfg')!r}, "
        f"PROVISIONING_RUNS_DATABASE={str(tmp_path / 'runs.db')!r})\n"
        "from runner.cli.playbook import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        f"    main.main(args=[{str(playbook)!r}, '-i', 'localhost,', '-c', 'local'], prog_name='p')\n")
    assert "sqlalchemy" in _loaded_after(run)["modules"]  # the first run creates the database
    modules = _loaded_after(run)["modules"]
    assert "runner.records.writer" in modules and "sqlalchemy" not in modules and "alembic" not in modules


def test_an_ini_inventory_loads_neither_the_infra_nor_the_providers(tmp_path: Path) -> None:
    """The commands' inventory loader reads infra files and aws_ec2 configurations too, but the code for them
    (and pydantic) loads only when a YAML source is read."""
    ini = tmp_path / "hosts"
    ini.write_text("[web]\nweb1 ansible_host=127.0.0.1\n")
    yml = tmp_path / "hosts.yml"
    yml.write_text("all:\n  hosts:\n    db1:\n")
    found = _loaded_after(
        "from pathlib import Path\n"
        "from runner.cli.project import load_sources\n"
        "from runner.config import load_config\n"
        "config = load_config(env={}, cwd=Path('/'))\n"
        f"found['ini'] = sorted(load_sources([{str(ini)!r}], config).hosts)\n"
        "found['ini_modules'] = sorted(sys.modules)\n"
        f"found['yml'] = sorted(load_sources([{str(yml)!r}], config).hosts)\n")
    assert "web1" in found["ini"] and "db1" in found["yml"]
    for heavy in ("pydantic", "runner.infra", "runner.providers"):
        assert heavy not in found["ini_modules"], heavy
        assert heavy in found["modules"], heavy  # a YAML source is asked whether it is an infra file


def test_the_compiler_and_the_actions_never_load_the_executor() -> None:
    """Names resolve through the module index; actions reach the run through their run state: neither needs the
    executor, which imports them (no cycle through providers either)."""
    modules = _loaded_after("import runner.compiler, runner.compiler.tasks, runner.compiler.infra, runner.actions\n"
                            "import runner.actions.server_provider\n")["modules"]
    assert not [name for name in modules if name.startswith("runner.executor")]


def test_syntax_check_loads_no_transport_no_event_loop_and_builds_no_validator(tmp_path: Path) -> None:
    """--syntax-check compiles and stops: nothing of the SSH transport, asyncio, the output's rich views or the
    records' database loads, and with the models' schemas cached (the second command of a version) pydantic
    builds no validator: its plugin loader, which scans every installed distribution, is never imported."""
    check = (
        "import contextlib, io\n"
        "from runner.cli.playbook import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    main.main(args=['tests/data/playbooks/reports.yml', '--syntax-check'], prog_name='p')\n")
    cache = {"XDG_CACHE_HOME": str(tmp_path)}
    first = _loaded_after(check, cache)["modules"]
    assert "runner.compiler" in first  # the syntax check did run
    modules = _loaded_after(check, cache)["modules"]
    assert "runner.compiler" in modules
    for unneeded in ("asyncssh", "cryptography", "asyncio", "rich", "sqlalchemy", "importlib.metadata",
                     "pydantic.plugin._loader", "runner.executor.playbook", "runner.connection.ssh"):
        assert unneeded not in modules, unneeded


def test_asking_whether_an_inventory_is_the_test_hosts_loads_no_test_env(tmp_path: Path) -> None:
    """Every command asks it of each inventory source; the test env's machinery (its YAML writer among it) loads
    only when the default inventory's hosts are started."""
    inventory = tmp_path / "hosts.yml"
    inventory.write_text("all:\n  hosts:\n    web1:\n")
    found = _loaded_after(f"from runner.testenv import is_default_inventory\n"
                          f"found['default'] = is_default_inventory({str(inventory)!r})")
    assert found["default"] is False
    modules = found["modules"]
    assert isinstance(modules, list)
    assert [name for name in modules if name.startswith(("runner.testenv.env", "ruamel"))] == []
