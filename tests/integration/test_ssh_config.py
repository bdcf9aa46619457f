"""The user's OpenSSH arguments and configuration on the session's test hosts: a jump through one host to another
the controller cannot reach itself, a jump to a bastion that does not exist (unreachable, never a silent direct
connection), and Host aliases from a ``-F`` file and from ``~/.ssh/config``.

The hosts' /etc/hosts name each other (host1, host2 ...) while the controller cannot resolve those names: a host
addressed as ``host2`` is reachable only through a jump host, which resolves the name on its side.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.support.playbook_run import run_playbook
from tests.support.scripts import script

pytestmark = pytest.mark.hosts


def adhoc(inventory: Path, *args: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **({"HOME": str(home)} if home else {})}
    return subprocess.run([script("provisioning"), "all", "-i", str(inventory), "-o", *args], capture_output=True,
                          text=True, timeout=180, env=env)


def ssh_config(testenv: TestEnv, alias: str, address: str) -> str:
    """An OpenSSH configuration block that logs in to ``address`` as ``alias`` with the env's key."""
    return textwrap.dedent(f"""\
        Host {alias}
          HostName {address}
          Port 22
          User root
          IdentityFile {testenv.private_key}
          UserKnownHostsFile {testenv.known_hosts}
        """)


def address_of(testenv: TestEnv, name: str) -> str:
    return next(host.address for host in testenv.hosts() if host.name == name)


@pytest.fixture
def behind_bastion(testenv: TestEnv, tmp_path: Path) -> tuple[Path, Path]:
    """(inventory, ssh config): host2 known by its name only, and 'bastion' (host1) in the configuration."""
    config = tmp_path / "ssh_config"
    config.write_text(ssh_config(testenv, "bastion", address_of(testenv, "host1")))
    inventory = tmp_path / "inventory.yml"
    inventory.write_text(textwrap.dedent(f"""\
        all:
          hosts:
            inner:
              ansible_host: host2
              ansible_user: root
              ansible_ssh_private_key_file: {testenv.private_key}
              provisioning_ssh_known_hosts_file: {testenv.known_hosts}
              ansible_python_interpreter: /usr/bin/python3
        """))
    return inventory, config


def test_a_jump_host_reaches_a_host_the_controller_cannot(testenv: TestEnv, behind_bastion: tuple[Path, Path]
                                                          ) -> None:
    inventory, config = behind_bastion
    direct = adhoc(inventory, "-m", "ping")
    assert direct.returncode == 4 and "inner | UNREACHABLE!" in direct.stdout, direct.stdout + direct.stderr
    # The host key is known by address; HostKeyAlias says which entry holds host2's.
    jump = f"-F {config} -J bastion -o HostKeyAlias={address_of(testenv, 'host2')}"
    through = adhoc(inventory, "-m", "command", "-a", "hostname", "-e", f"ansible_ssh_common_args='{jump}'")
    assert through.returncode == 0, through.stdout + through.stderr
    assert through.stdout == "inner | CHANGED | rc=0 | (stdout) host2\n"


def test_a_jump_host_in_a_playbook_run(testenv: TestEnv, behind_bastion: tuple[Path, Path], tmp_path: Path) -> None:
    inventory, config = behind_bastion
    with inventory.open("a") as handle:
        handle.write(f"      ansible_ssh_common_args: -F {config} -o ProxyJump=bastion "
                     f"-o HostKeyAlias={address_of(testenv, 'host2')}\n")
    playbook = tmp_path / "site.yml"
    playbook.write_text(textwrap.dedent("""\
        - hosts: all
          gather_facts: false
          tasks:
            - name: where
              command: hostname
        """))
    run = run_playbook(inventory, playbook)
    assert run.exit_code == 0, run.output
    assert run.task("where")["inner"]["stdout"] == "host2"


def test_a_jump_to_a_bastion_that_does_not_exist_is_unreachable(testenv: TestEnv, tmp_path: Path) -> None:
    """host3 answers directly, but the user asked for a jump: going there directly would bypass it."""
    inventory = tmp_path / "inventory.yml"
    inventory.write_text(textwrap.dedent(f"""\
        all:
          hosts:
            direct:
              ansible_host: {address_of(testenv, 'host3')}
              ansible_user: root
              ansible_ssh_private_key_file: {testenv.private_key}
              provisioning_ssh_known_hosts_file: {testenv.known_hosts}
              ansible_python_interpreter: /usr/bin/python3
              ansible_ssh_common_args: -o ProxyJump=root@no-such-bastion.invalid
        """))
    run = adhoc(inventory, "-m", "ping")
    assert run.returncode == 4, run.stdout + run.stderr
    assert "direct | UNREACHABLE!" in run.stdout and "via root@no-such-bastion.invalid" in run.stdout


@pytest.fixture
def alias_inventory(tmp_path: Path) -> Path:
    """A host known only by an alias, with no connection variable: everything comes from the ssh configuration."""
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("web-alias ansible_python_interpreter=/usr/bin/python3\n")
    return inventory


def test_a_host_alias_from_a_config_file_given_with_dash_f(testenv: TestEnv, alias_inventory: Path,
                                                           tmp_path: Path) -> None:
    config = tmp_path / "ssh_config"
    config.write_text(ssh_config(testenv, "web-alias", address_of(testenv, "host3")))
    run = adhoc(alias_inventory, "-a", "hostname", f"--ssh-common-args=-F {config}")
    assert run.stdout == "web-alias | CHANGED | rc=0 | (stdout) host3\n", run.stdout + run.stderr


def test_a_host_alias_from_the_users_ssh_config(testenv: TestEnv, alias_inventory: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    # Include and Match, as asyncssh reads them: the alias's block is in an included file.
    (home / ".ssh" / "web.conf").write_text(ssh_config(testenv, "web-alias", address_of(testenv, "host2")))
    (home / ".ssh" / "config").write_text("Include ~/.ssh/web.conf\nMatch user nobody\n  Port 1\n")
    run = adhoc(alias_inventory, "-a", "hostname", home=home)
    assert run.stdout == "web-alias | CHANGED | rc=0 | (stdout) host2\n", run.stdout + run.stderr


def test_a_proxy_command_reaches_a_host_the_controller_cannot(testenv: TestEnv,
                                                               behind_bastion: tuple[Path, Path]) -> None:
    """OpenSSH's own client as the ProxyCommand, through the bastion: %h and %p are the target's."""
    inventory, config = behind_bastion
    proxy = f"ssh -F {config} -W %h:%p bastion"
    args = f"-o 'ProxyCommand {proxy}' -o HostKeyAlias={address_of(testenv, 'host2')}"
    run = adhoc(inventory, "-a", "hostname", f"--ssh-extra-args={args}")
    assert run.stdout == "inner | CHANGED | rc=0 | (stdout) host2\n", run.stdout + run.stderr
