"""``provisioning-console``: an interactive shell of ad-hoc commands, as ``ansible-console``.

Each line is a module and its arguments (``ping``, ``debug var=inventory_hostname``, ``!uptime`` for ``shell``),
run on the hosts of the current pattern as ``provisioning PATTERN -m MODULE -a ARGS`` would run it, with the
options the console was started with. Built-in commands change what the next line runs with: ``cd PATTERN``,
``list [groups]``, ``forks N``, ``become yes|no``, ``become_user NAME``, ``check yes|no``, ``diff yes|no``,
``verbosity N``, ``remote_user NAME``, ``timeout N``, ``help``, ``exit``. Lines may come from a terminal or be
piped in (``echo ping | provisioning-console web``); the console ends at the end of its input.
"""

from __future__ import annotations

import cmd
import getpass
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from runner.cli.common import Command, report_errors
from runner.cli.version import version_option
from runner.templating.filters.core import to_bool

# The options the console manages itself (the state its commands change); every other one is passed on as given.
_MANAGED = {"-f": "forks", "--forks": "forks", "-b": "become", "--become": "become", "-C": "check",
            "--check": "check", "-D": "diff", "--diff": "diff", "--become-user": "become_user",
            "-u": "remote_user", "--user": "remote_user", "-T": "task_timeout", "--task-timeout": "task_timeout"}
_WITH_VALUE = {"forks", "become_user", "remote_user", "task_timeout"}


@dataclass
class ConsoleState:
    pattern: str
    passed_on: list[str]  # the command line's other options, given to every ad-hoc run
    forks: int = 5
    become: bool = False
    become_user: str | None = None
    remote_user: str | None = None
    check: bool = False
    diff: bool = False
    verbosity: int = 0
    task_timeout: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def adhoc_command(self, pattern: str, *arguments: str) -> list[str]:
        """``provisioning PATTERN ...`` with the console's current settings and the passed-on options."""
        command = [str(Path(sys.executable).parent / "provisioning"), pattern, *self.passed_on,
                   "-f", str(self.forks)]
        command += ["-b"] if self.become else []
        command += ["--become-user", self.become_user] if self.become_user else []
        command += ["-u", self.remote_user] if self.remote_user else []
        command += ["-C"] if self.check else []
        command += ["-D"] if self.diff else []
        command += ["-" + "v" * self.verbosity] if self.verbosity else []
        command += ["--task-timeout", str(self.task_timeout)] if self.task_timeout else []
        return [*command, *arguments]


def split_options(arguments: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The managed options' values and the other options, as given."""
    managed: dict[str, Any] = {}
    passed_on: list[str] = []
    index = 0
    while index < len(arguments):
        argument = arguments[index]
        name, _, inline = argument.partition("=")
        key = _MANAGED.get(name)
        if key in _WITH_VALUE:
            if inline:
                managed[key] = inline
            elif index + 1 < len(arguments):
                index += 1
                managed[key] = arguments[index]
        elif key is not None:
            managed[key] = True
        elif argument.startswith("-v") and set(argument[1:]) == {"v"}:
            managed["verbosity"] = managed.get("verbosity", 0) + len(argument) - 1
        elif argument == "--verbose":
            managed["verbosity"] = managed.get("verbosity", 0) + 1
        else:
            passed_on.append(argument)
        index += 1
    return managed, passed_on


class Console(cmd.Cmd):
    intro = "Welcome to the provisioning console. Type help or ? to list commands.\n"

    def __init__(self, state: ConsoleState, *, interactive: bool) -> None:
        super().__init__()
        self.state = state
        self.use_rawinput = interactive
        self.hosts = self._hosts(state.pattern)
        self.set_prompt()

    # -- the prompt and the hosts ----------------------------------------------------------------------------
    def set_prompt(self) -> None:
        user = self.state.remote_user or getpass.getuser()
        if self.state.become:
            user = self.state.become_user or "root"
        mark = "#" if self.state.become else "$"
        self.prompt = f"{user}@{self.state.pattern} ({len(self.hosts)})[f:{self.state.forks}]{mark} "

    def _hosts(self, pattern: str) -> list[str]:
        listed = subprocess.run(self.state.adhoc_command(pattern, "--list-hosts"), capture_output=True, text=True,
                                check=False)
        if listed.returncode != 0:
            sys.stderr.write(listed.stderr)
            return []
        return [line.strip() for line in listed.stdout.splitlines()[1:] if line.strip()]

    # -- running modules -------------------------------------------------------------------------------------
    def default(self, line: str) -> None:
        module, _, arguments = line.strip().partition(" ")
        if module.startswith("!"):
            module, arguments = "shell", line.strip()[1:]
        command = self.state.adhoc_command(self.state.pattern, "-m", module)
        if arguments.strip():
            command += ["-a", arguments.strip()]
        subprocess.run(command, check=False)

    def do_shell(self, arguments: str) -> None:
        """shell COMMAND (or !COMMAND): run a shell command on the current hosts."""
        self.default(f"shell {arguments}")

    def emptyline(self) -> bool:
        return False  # an empty line does nothing (cmd.Cmd would repeat the last command)

    # -- the state -------------------------------------------------------------------------------------------
    def do_cd(self, pattern: str) -> None:
        """cd [PATTERN]: change the hosts the next commands run on (default: all)."""
        pattern = pattern.strip() or "all"
        hosts = self._hosts(pattern)
        if not hosts:
            print(f"no host matched '{pattern}'")
            return
        self.state.pattern, self.hosts = pattern, hosts
        self.set_prompt()

    def do_list(self, what: str) -> None:
        """list [groups]: the current hosts, or the inventory's groups."""
        if what.strip() == "groups":
            listed = subprocess.run([str(Path(sys.executable).parent / "provisioning-inventory"),
                                     *self._inventory_options(), "--graph"], capture_output=True, text=True,
                                    check=False)
            for line in listed.stdout.splitlines():
                name = line.strip(" |-").lstrip("@").rstrip(":")
                if line.lstrip(" |-").startswith("@"):
                    print(name)
            return
        for host in self.hosts:
            print(host)

    def _inventory_options(self) -> list[str]:
        passed, options = self.state.passed_on, []
        for index, argument in enumerate(passed):
            if argument in ("-i", "--inventory", "--inventory-file") and index + 1 < len(passed):
                options += [argument, passed[index + 1]]
            elif argument.startswith(("--inventory=", "--inventory-file=")):
                options.append(argument)
        return options

    def do_forks(self, value: str) -> None:
        """forks N: how many hosts are worked on at once."""
        if not value.strip().isdigit() or int(value) < 1:
            print("Usage: forks <number>")
            return
        self.state.forks = int(value)
        self.set_prompt()

    def do_become(self, value: str) -> None:
        """become yes|no: run the next commands with privilege escalation, or not."""
        self.state.become = self._flag(value, "become")
        self.set_prompt()

    def do_become_user(self, value: str) -> None:
        """become_user NAME: the user become switches to."""
        self.state.become_user = value.strip() or None
        self.set_prompt()

    def do_remote_user(self, value: str) -> None:
        """remote_user NAME: the user to connect as."""
        self.state.remote_user = value.strip() or None
        self.set_prompt()

    def do_check(self, value: str) -> None:
        """check yes|no: predict changes without making them."""
        self.state.check = self._flag(value, "check")

    def do_diff(self, value: str) -> None:
        """diff yes|no: show the differences in changed files."""
        self.state.diff = self._flag(value, "diff")

    def do_verbosity(self, value: str) -> None:
        """verbosity N: as many -v."""
        if value.strip().isdigit():
            self.state.verbosity = int(value)
        else:
            print("Usage: verbosity <number>")

    def do_timeout(self, value: str) -> None:
        """timeout N: the time limit of each command, in seconds (0: none)."""
        if value.strip().isdigit():
            self.state.task_timeout = int(value) or None
        else:
            print("Usage: timeout <number of seconds>")

    def _flag(self, value: str, name: str) -> bool:
        flag = to_bool(value.strip()) if value.strip() else True
        print(f"{name} changed to {flag}")
        return bool(flag)

    # -- leaving ---------------------------------------------------------------------------------------------
    def do_exit(self, _: str) -> bool:
        """exit: leave the console (also Ctrl-D)."""
        print()
        return True

    do_EOF = do_exit


@click.command(cls=Command, context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True,
                                              "allow_extra_args": True})
@click.argument("pattern", required=False, default="all")
@click.pass_context
@version_option
@report_errors
def main(context: click.Context, pattern: str) -> int:
    """An interactive shell of ad-hoc commands on the hosts PATTERN selects (default all); it takes the options of
    `provisioning` (-i, -l, -e, -u, -b, -C, -D, -f, -v ...). Type help at its prompt for its commands."""
    managed, passed_on = split_options(list(context.args))
    state = ConsoleState(pattern=pattern, passed_on=passed_on, verbosity=managed.get("verbosity", 0),
                         forks=int(managed.get("forks", 5)), become=bool(managed.get("become")),
                         become_user=managed.get("become_user"), remote_user=managed.get("remote_user"),
                         check=bool(managed.get("check")), diff=bool(managed.get("diff")),
                         task_timeout=int(managed["task_timeout"]) if managed.get("task_timeout") else None)
    console = Console(state, interactive=sys.stdin.isatty())
    try:
        console.cmdloop()
    except KeyboardInterrupt:
        print()
    print("Provisioning console was exited.")
    return 0
