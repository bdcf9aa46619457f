"""One target's throwaway copy of ansible-test's layout, and the command and environment that run it.

Like ansible-test: ``<work>/test/integration/`` holds the inventory, an empty config and ``targets/`` with the
target and every target it needs; a role target becomes a playbook there applying the role to ``testhost``; a
``runme.sh`` target runs in its own directory. The environment is the one ansible-test sets
(``ansible_util.ansible_environment`` and ``integration_environment``), less coverage and the junit callback.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.compat.runners import Runner, path_with
from bench.compat.targets import Target, TargetSet

# Addresses some targets name for a host that must be unreachable (169.254.199.200 in ignore_unreachable and
# callback_default): trying them would send packets off this machine, which the suite never does. They become a
# loopback address nothing listens on (test hosts stop before .254), so the host is just as unreachable.
OFF_MACHINE_ADDRESSES = {"169.254.199.200": "127.0.0.254"}


@dataclass(frozen=True)
class Workspace:
    """``<root>/test/integration/{inventory, integration.cfg, targets/...}`` and ``<root>/output``."""

    root: Path
    integration_dir: Path
    targets_dir: Path
    inventory: Path
    config: Path
    output_dir: Path  # OUTPUT_DIR / output_dir: the same path on the controller and on the hosts
    ansible_version: str  # of the sdist the targets come from: ansible-test's ANSIBLE_TEST_ANSIBLE_VERSION

    @classmethod
    def create(cls, target: Target, targets: TargetSet, base: Path) -> Workspace:
        root = Path(tempfile.mkdtemp(prefix=f"{target.name}-", suffix="-compat", dir=base))
        integration_dir = root / "test" / "integration"
        targets_dir = integration_dir / "targets"
        targets_dir.mkdir(parents=True)
        for name in [target.name, *targets.dependencies(target)]:
            shutil.copytree(targets[name].path, targets_dir / name, symlinks=True)
            _keep_on_machine(targets_dir / name)
        sdist_root = targets.root.parent.parent.parent
        for alias in target.aliases:
            if alias.startswith("needs/file/"):
                # a file of the sdist, by its path from the sdist's root: copied to the same place
                relative = alias[len("needs/file/"):]
                if not (sdist_root / relative).exists():
                    continue  # not shipped in the sdist (hacking/ is git-only): the target finds it missing
                (root / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(sdist_root / relative, root / relative)
        config = integration_dir / "integration.cfg"
        config.write_text("")  # ansible-test's default config is empty: the tests set what they need
        output_dir = root / "output"
        output_dir.mkdir()
        return cls(root, integration_dir, targets_dir, integration_dir / "inventory", config, output_dir,
                   targets.version)

    def role_playbook(self, target: Target) -> Path:
        """The play ansible-test generates for a role target (command_integration_role)."""
        play = {"hosts": "testhost", "gather_facts": target.gather_facts, "vars_files": [],
                "vars": {"output_dir": str(self.output_dir)}, "roles": [target.name]}
        path = self.integration_dir / f"{target.name}-compat.yml"
        path.write_text(json.dumps([play], indent=4, sort_keys=True) + "\n")
        return path

    def working_dir(self, target: Target) -> Path:
        """Where ansible-test runs a target: a script in its own directory, a role's playbook beside the
        inventory."""
        return self.targets_dir / target.name if target.is_script else self.integration_dir

    def command(self, target: Target) -> tuple[list[str], Path]:
        """The command line and working directory that run ``target``."""
        if target.is_script:
            return ["./runme.sh"], self.working_dir(target)
        playbook = self.role_playbook(target)
        return ["ansible-playbook", playbook.name, "-i", "inventory"], self.working_dir(target)

    def environment(self, target: Target, runner: Runner, shim_dir: Path, base_env: dict[str, str]) -> dict[str, str]:
        env = dict(base_env)
        env.update(
            ANSIBLE_PYTHON_MODULE_RLIMIT_NOFILE="1024",  # ansible-test's SOFT_RLIMIT_NOFILE
            ANSIBLE_FORCE_COLOR="false",
            ANSIBLE_FORCE_HANDLERS="true",
            ANSIBLE_HOST_PATTERN_MISMATCH="error",
            ANSIBLE_INVENTORY="/dev/null",
            ANSIBLE_DEPRECATION_WARNINGS="false",
            ANSIBLE_HOST_KEY_CHECKING="false",
            ANSIBLE_RETRY_FILES_ENABLED="false",
            ANSIBLE_CONFIG=str(self.config),
            ANSIBLE_LIBRARY="/dev/null",
            ANSIBLE_DEVEL_WARNING="false",
            ANSIBLE_PYTHON_INTERPRETER="/set/ansible_python_interpreter/in/inventory",
            PAGER="/bin/cat",
            PATH=path_with(shim_dir),
            ANSIBLE_TEST_CI="",
            ANSIBLE_TEST_COVERAGE="",
            ANSIBLE_TEST_ANSIBLE_VERSION=self.ansible_version,
            ANSIBLE_TEST_PYTHON_INTERPRETER=str(runner.python),
            ANSIBLE_TEST_PYTHON_VERSION=runner.python_version(),
            OUTPUT_DIR=str(self.output_dir),
            INVENTORY_PATH=str(self.inventory),
            JUNIT_OUTPUT_DIR=str(self.root / "junit"),
        )
        env["ANSIBLE_PLAYBOOK_DIR"] = str(self.working_dir(target))
        if not target.is_script:
            env["ANSIBLE_ROLES_PATH"] = str(self.targets_dir)
        env.update(target.env_set)
        return env

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)



def _keep_on_machine(directory: Path) -> None:
    """Rewrite the off-machine addresses of OFF_MACHINE_ADDRESSES in the target's text files (links left alone)."""
    for path in directory.rglob("*"):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text()
        except (UnicodeDecodeError, OSError):
            continue  # binary or unreadable: no address to rewrite
        rewritten = text
        for address, local in OFF_MACHINE_ADDRESSES.items():
            rewritten = rewritten.replace(address, local)
        if rewritten != text:
            path.write_text(rewritten)
