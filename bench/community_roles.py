"""Community roles against both runners: does a role converge and stay idempotent with ours where it does with
ansible-core?

    .venv/bin/python -m bench.community_roles ROLE [ROLE ...] --roles-path DIR [--collections-path DIR]
        [--extra-vars JSON] [--ansible-venv VENV] [--base-address N] [--json FILE]

Each role is applied to a fresh local test host by each runner in turn, twice: the first run must exit 0 (it
converges), the second must exit 0 and change nothing (it is idempotent). A role that ansible-core itself does
not converge here (it needs systemd as PID 1, a swap-capable filesystem, a network mirror ...) says nothing
about ours and is reported as such. The runners take turns rather than running side by side because the test
hosts share the machine's network: two nginx roles at once would fight over port 80.

The roles are the user's: fetched or installed beforehand into ``--roles-path`` (a role name) or
``--collections-path`` (``namespace.collection.role``). Nothing of them is kept in this repository.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import asdict, dataclass
from pathlib import Path

from bench.compat.runners import Runner, ansible, ours
from runner.testenv import TestEnv

TASK_TITLE = re.compile(r"^(?:TASK|RUNNING HANDLER) \[(.*)\] \**$")
RECAP = re.compile(r"^\S+\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.MULTILINE)
ENV_NAME = "community-roles"
BASE_ADDRESS = 200
RUN_TIMEOUT = 900
FIREWALL_FAMILIES = ("iptables", "ip6tables")


@dataclass(frozen=True)
class Run:
    rc: int
    changed: int | None  # from the recap; None when the run printed none (it stopped before any play)
    failed_at: str | None = None  # the task whose failure stopped a host (its TASK [...] title), if any


@dataclass(frozen=True)
class Outcome:
    role: str
    runner: str
    first: Run
    second: Run

    @property
    def converges(self) -> bool:
        return self.first.rc == 0

    @property
    def idempotent(self) -> bool:
        return self.second.rc == 0 and self.second.changed == 0

    @property
    def verdict(self) -> str:
        if not self.converges:
            where = f" at [{self.first.failed_at}]" if self.first.failed_at else ""
            return f"fails (rc {self.first.rc}){where}"
        return "converges, idempotent" if self.idempotent else f"converges, second run changed {self.second.changed}"


def main(argv: list[str] | None = None) -> int:
    options = _parser().parse_args(argv)
    runners = [ansible(options.ansible_venv), ours()]
    outcomes = [apply(role, runner, options) for role in options.roles for runner in runners]
    for outcome in outcomes:
        print(f"{outcome.role:45} {outcome.runner:8} {outcome.verdict}")
    print(summary(outcomes))
    if options.json:
        options.json.write_text(json.dumps([{**asdict(o), "verdict": o.verdict} for o in outcomes], indent=2) + "\n")
    return 0


def summary(outcomes: list[Outcome]) -> str:
    baseline = {o.role for o in outcomes if o.runner == "ansible" and o.converges and o.idempotent}
    mine = {o.role for o in outcomes if o.runner == "ours" and o.converges and o.idempotent}
    return (f"{len(baseline)} of {len({o.role for o in outcomes})} roles converge and are idempotent with "
            f"ansible-core here; ours: {len(mine & baseline)} of those {len(baseline)}")


def apply(role: str, runner: Runner, options: argparse.Namespace) -> Outcome:
    """The role on a fresh host of its own, run twice by ``runner``; the host is gone afterwards."""
    work = options.work_dir / runner.name / role
    work.mkdir(parents=True, exist_ok=True)
    env = TestEnv(name=f"{options.env_name}-{runner.name}", count=1, base_address=options.base_address,
                  prefix="role")
    env.down()
    firewall = save_firewall()
    env.up()
    try:
        playbook = write_project(work, role, env)
        runs = [run_playbook(runner, playbook, env.inventory_path, options, work / f"run{index}.log")
                for index in (1, 2)]
    finally:
        env.down()
        restore_firewall(firewall)
    return Outcome(role, runner.name, *runs)


def save_firewall() -> dict[str, str]:
    """The machine's packet filter rules (``iptables-save``, ``ip6tables-save``), where those commands exist.

    The test hosts share the machine's network namespace, so a firewall role (geerlingguy.firewall, a ufw role)
    sets the machine's rules: left in place they would shut the machine's ports and make the next runner find the
    firewall already set up (a first run with fewer changes)."""
    saved = {}
    for family in FIREWALL_FAMILIES:
        try:
            done = subprocess.run([f"{family}-save"], capture_output=True, text=True, check=True)
        except (OSError, subprocess.CalledProcessError):
            continue
        saved[family] = done.stdout
    return saved


def restore_firewall(saved: dict[str, str]) -> None:
    """Put back what ``save_firewall`` read; ``iptables-restore`` without ``--noflush`` replaces every table
    it names, and removes the chains the role added."""
    for family, rules in saved.items():
        subprocess.run([f"{family}-restore"], input=rules, text=True, check=True, capture_output=True)


def write_project(work: Path, role: str, env: TestEnv) -> Path:
    """A playbook applying ``role`` to every host, and an ansible.cfg both runners read (ours reads Ansible's
    when it has no configuration of its own) that checks host keys against the env's known_hosts."""
    (work / "ansible.cfg").write_text(
        "[defaults]\nhost_key_checking = True\ninterpreter_python = /usr/bin/python3\n\n"
        f"[ssh_connection]\npipelining = True\nssh_args = -o UserKnownHostsFile={env.known_hosts} "
        "-o ControlMaster=auto -o ControlPersist=60s\n")
    playbook = work / "play.yml"
    playbook.write_text(f"- hosts: all\n  gather_facts: true\n  roles:\n    - role: {role}\n")
    return playbook


def run_playbook(runner: Runner, playbook: Path, inventory: Path, options: argparse.Namespace, log: Path) -> Run:
    command = runner.command_for("ansible-playbook")
    assert command is not None
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("ANSIBLE_", "PROVISIONING_"))}
    environment.update(ANSIBLE_NOCOLOR="1", ANSIBLE_ROLES_PATH=str(options.roles_path),
                       PROVISIONING_ROLES_PATH=str(options.roles_path))
    if options.collections_path:
        environment.update(ANSIBLE_COLLECTIONS_PATH=str(options.collections_path),
                           PROVISIONING_COLLECTIONS_PATH=str(options.collections_path))
    arguments = [str(command), "-i", str(inventory), str(playbook), "-e", options.extra_vars]
    try:
        done = subprocess.run(arguments, cwd=playbook.parent, env=environment, capture_output=True, text=True,
                              timeout=RUN_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        log.write_text(f"timed out after {RUN_TIMEOUT} s\n{exc.stdout or ''}")
        return Run(rc=-1, changed=None)
    log.write_text(done.stdout + done.stderr)
    recaps = RECAP.findall(done.stdout)
    changed = sum(int(recap[1]) for recap in recaps) if recaps else None
    return Run(rc=done.returncode, changed=changed, failed_at=failed_task(done.stdout))


def failed_task(output: str) -> str | None:
    """The title of the first task whose failure was not ignored (``TASK [role : name]``), as both runners print
    it: where a role that does not converge stops, so the runners' failures can be compared."""
    title = None
    lines = output.splitlines()
    for number, line in enumerate(lines):
        task = TASK_TITLE.match(line)
        if task:
            title = task[1]
        elif line.startswith(("fatal: [", "failed: [")):
            following = lines[number + 1] if number + 1 < len(lines) else ""
            if "...ignoring" not in following:
                return title
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench.community_roles", description=__doc__.split("\n\n")[0])
    parser.add_argument("roles", nargs="+", metavar="ROLE", help="a role name, or namespace.collection.role")
    parser.add_argument("--roles-path", type=Path, required=True, help="where the roles are")
    parser.add_argument("--collections-path", type=Path, help="holds ansible_collections/NS/NAME")
    parser.add_argument("--extra-vars", default="{}", help="JSON given to every run with -e")
    parser.add_argument("--ansible-venv", type=Path, help="a venv with ansible-core (default: made on first use)")
    parser.add_argument("--base-address", type=int, default=BASE_ADDRESS, help="127.0.0.N of the test host")
    parser.add_argument("--env-name", default=ENV_NAME, help=f"the test env's name, before -RUNNER ({ENV_NAME})")
    parser.add_argument("--work-dir", type=Path, default=Path("/tmp/community-roles"), help="playbooks and logs")
    parser.add_argument("--json", type=Path, help="write the outcomes here")
    return parser


if __name__ == "__main__":
    sys.exit(main())
