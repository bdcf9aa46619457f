"""The two runners a target can run under: ours (provisioning's CLIs) and ansible-core (the baseline).

A runner is a directory of shims named like Ansible's commands, put first on PATH: ``runme.sh`` scripts and the
role playbooks call ``ansible-playbook``, ``ansible`` ... and get the runner's own command, with the same
arguments. ``python``/``python3`` are the runner's interpreter, as ansible-test puts its Python first too.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.compat.sdist import ANSIBLE_CORE_VERSION

ANSIBLE_COMMANDS = ("ansible", "ansible-playbook", "ansible-inventory", "ansible-config", "ansible-galaxy",
                    "ansible-doc", "ansible-vault", "ansible-pull", "ansible-console")
# Ansible's command -> ours; a command we do not have gets a shim that says so (exit 1)
OUR_COMMANDS = {
    "ansible": "provisioning",
    "ansible-playbook": "provisioning-playbook",
    "ansible-inventory": "provisioning-inventory",
    "ansible-config": "provisioning-config",
    "ansible-galaxy": "provisioning-galaxy",
    "ansible-doc": "provisioning-doc",
    "ansible-console": "provisioning-console",
}
VENVS_DIR = Path(__file__).resolve().parent.parent / ".venvs"
BASELINE_VENV = VENVS_DIR / f"ansible-core-{ANSIBLE_CORE_VERSION}"  # the pin's; the tests reuse it


@dataclass(frozen=True)
class Runner:
    name: str
    bin_dir: Path  # holds the runner's console scripts and its python

    @property
    def python(self) -> Path:
        return self.bin_dir / "python"

    def command_for(self, ansible_command: str) -> Path | None:
        script = ansible_command if self.name == "ansible" else OUR_COMMANDS.get(ansible_command)
        if script is None or not (self.bin_dir / script).exists():
            return None
        return self.bin_dir / script

    def write_shims(self, shim_dir: Path) -> Path:
        shim_dir.mkdir(parents=True, exist_ok=True)
        for ansible_command in ANSIBLE_COMMANDS:
            command = self.command_for(ansible_command)
            if command is None:
                body = (f"echo '{ansible_command}: not provided by the {self.name} runner' >&2\nexit 1\n")
            else:
                body = f"exec {shlex.quote(str(command))} \"$@\"\n"
            write_script(shim_dir / ansible_command, body)
        for name in ("python", "python3"):
            write_script(shim_dir / name, f"exec {shlex.quote(str(self.python))} \"$@\"\n")
        return shim_dir

    def python_version(self) -> str:
        code = "import sys; print('%d.%d' % sys.version_info[:2])"
        return subprocess.run([str(self.python), "-c", code], capture_output=True, text=True,
                              check=True).stdout.strip()


def write_script(path: Path, body: str) -> None:
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)


def ours() -> Runner:
    """Our CLIs from the environment this harness runs in (the project's .venv)."""
    return Runner("ours", Path(sys.executable).parent)


def ansible(venv: Path | None = None, version: str = ANSIBLE_CORE_VERSION) -> Runner:
    """ansible-core at ``version``: ``venv`` if given, else a throwaway venv under bench/.venvs/ that is made
    (pip install) on first use."""
    venv = venv or VENVS_DIR / f"ansible-core-{version}"
    if not (venv / "bin" / "ansible-playbook").exists():
        print(f"installing ansible-core {version} into {venv} (first run only)", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"ansible-core=={version}"],
                       check=True)
    code = "import ansible.release as r; print(r.__version__)"
    found = subprocess.run([str(venv / "bin" / "python"), "-c", code], capture_output=True, text=True).stdout.strip()
    if found != version:
        raise SystemExit(f"{venv} has ansible-core {found or 'not installed'}, not {version}")
    return Runner("ansible", venv / "bin")


def runner_named(name: str, ansible_venv: Path | None, version: str = ANSIBLE_CORE_VERSION) -> Runner:
    return ours() if name == "ours" else ansible(ansible_venv, version)


def path_with(shim_dir: Path) -> str:
    return os.pathsep.join([str(shim_dir), os.environ.get("PATH", "/usr/bin:/bin")])
