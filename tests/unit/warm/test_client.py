"""The warm controller's client: what it imports (almost nothing, so that a run served warm costs no imports)
and when it starts the run itself without asking (persist 0 in the environment or on the command line)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import runner
from runner.warm.client import _kept_nothing

HEAVY = ("click", "pydantic", "yaml", "jinja2", "asyncssh", "cryptography", "asyncio", "runner.cli", "runner.config",
         "runner.models", "runner.connection")


def test_the_client_imports_none_of_the_controller() -> None:
    loaded = subprocess.run([sys.executable, "-c", "import sys, runner.warm.client; print(*sys.modules)"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert "runner.warm.client" in loaded
    assert [name for name in loaded if name.startswith(HEAVY)] == []


def test_the_client_loads_neither_typing_nor_pathlib() -> None:
    """Nor does ``import runner``: a wheel's site-packages costs the interpreter little at start, and then these two
    would be a third of the client's own start. (Without ``site``: an editable install's import finder loads
    pathlib itself.)"""
    packages = os.path.dirname(os.path.dirname(runner.__file__))
    code = f"import sys; sys.path.insert(0, {packages!r}); import runner.warm.client; print(*sys.modules)"
    loaded = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True,
                            check=True).stdout.split()
    assert "runner.warm.client" in loaded
    assert {"typing", "pathlib"} & set(loaded) == set()


@pytest.mark.parametrize(("environment", "argv", "expected"), [
    (None, ["site.yml"], False),
    ("60", ["site.yml", "--persist", "30"], False),
    ("0", ["site.yml"], True),
    ("0.0", ["site.yml"], True),
    (None, ["site.yml", "--persist", "0"], True),
    (None, ["site.yml", "--persist=0"], True),
    ("sixty", ["site.yml"], True),  # not a number: the cold run reports it
    (None, ["--", "--persist", "0"], False),  # after "--": not an option
])
def test_persist_0_starts_the_run_cold(monkeypatch: pytest.MonkeyPatch, environment: str | None,
                                       argv: list[str], expected: bool) -> None:
    if environment is None:
        monkeypatch.delenv("PROVISIONING_PERSIST", raising=False)
    else:
        monkeypatch.setenv("PROVISIONING_PERSIST", environment)
    assert _kept_nothing(argv) is expected
