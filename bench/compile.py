"""Compile-time benchmark: a generated 1,000-task playbook through the compiler, in-process and via the CLI.

    python3 bench/compile.py [--tasks 1000] [--runs 5] [--keep DIR]

The playbook mixes modules, free-form and dict arguments, loops, conditions, registers, tags, blocks, handlers
and roles with a shared dependency. Reported: the median time of ``Compiler.compile_playbooks`` (a fresh
compiler each run, in this process) and of ``provisioning-playbook --syntax-check`` (interpreter start-up
included), with the start-up alone (``--help``) for comparison. Nothing touches a host.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

ROLES = 5
BASE_ROLE_TASKS = 50
PLAY_SHARE = 0.2  # the play's own tasks; the roles share the rest

# One task per entry, cycled: (name, module, arguments, extra keywords)
_TASK_SHAPES: list[tuple[str, str, Any, dict[str, Any]]] = [
    ("create directory {n}", "file", {"path": "{{ bench_root }}/d{n}", "state": "directory", "mode": "0755"}, {}),
    ("write file {n}", "copy", {"content": "{{ inventory_hostname }} {n}\n", "dest": "{{ bench_root }}/f{n}"},
     {"notify": "bench changed"}),
    ("run command {n}", "command", "echo {n} {{ inventory_hostname }}", {"register": "out_{n}", "changed_when": False}),
    ("run shell {n}", "shell", "test -d {{ bench_root }} && echo {n}", {"when": "bench_enabled | bool"}),
    ("stat {n}", "stat", {"path": "{{ bench_root }}/f{n}"}, {"register": "stat_{n}"}),
    ("set fact {n}", "set_fact", {"fact_{n}": "{{ bench_root }}/{n}"}, {"tags": ["facts"]}),
    ("debug {n}", "debug", {"msg": "{{ item }} of {n}"},
     {"loop": ["a", "b", "c"], "when": "verbose | default(false)"}),
    ("subdirectories {n}", "file", "path={{ bench_root }}/{n}-{{ item }} state=directory",
     {"loop": "{{ subdirectories }}", "tags": ["dirs"]}),
]


def _format(value: Any, number: int) -> Any:
    """The shape with the task number in place of ``{n}``; Jinja2's ``{{ }}`` stays as written."""
    if isinstance(value, str):
        return value.replace("{n}", str(number))
    if isinstance(value, dict):
        return {_format(key, number): _format(item, number) for key, item in value.items()}
    if isinstance(value, list):
        return [_format(item, number) for item in value]
    return value


def make_tasks(count: int, first: int) -> list[dict[str, Any]]:
    """``count`` tasks numbered from ``first``; every tenth pair sits in a block with a rescue."""
    tasks: list[dict[str, Any]] = []
    number = first
    while number < first + count:
        if (number - first) % 10 == 0 and first + count - number >= 2:
            tasks.append({"name": f"block {number}", "block": [_task(number)], "rescue": [_task(number + 1)]})
            number += 2
        else:
            tasks.append(_task(number))
            number += 1
    return tasks


def _task(number: int) -> dict[str, Any]:
    name, module, args, keywords = _TASK_SHAPES[number % len(_TASK_SHAPES)]
    return {"name": _format(name, number), module: _format(args, number), **_format(keywords, number)}


def write_project(root: Path, total: int) -> Path:
    """The playbook and its roles under ``root``; returns the playbook's path."""
    yaml = YAML()
    yaml.width = 4096

    def dump(path: Path, data: Any) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("w") as handle:
            yaml.dump(data, handle)

    handlers = [{"name": "bench changed", "debug": {"msg": "changed"}}]
    play_tasks = int(total * PLAY_SHARE)
    per_role = (total - play_tasks - BASE_ROLE_TASKS) // ROLES
    play_tasks = total - BASE_ROLE_TASKS - per_role * ROLES  # the remainder stays with the play
    dump(root / "roles/bench_base/tasks/main.yml", make_tasks(BASE_ROLE_TASKS, 0))
    dump(root / "roles/bench_base/defaults/main.yml", {"bench_root": "/tmp/compile-bench", "bench_enabled": True})
    next_number = BASE_ROLE_TASKS
    for index in range(ROLES):
        role = root / f"roles/bench_role{index}"
        dump(role / "meta/main.yml", {"dependencies": [{"role": "bench_base"}]})
        dump(role / "defaults/main.yml", {"subdirectories": ["x", "y", "z"], "role_number": index})
        dump(role / "handlers/main.yml", handlers)
        dump(role / "tasks/main.yml", make_tasks(per_role, next_number))
        next_number += per_role
    play = {
        "name": "compile benchmark",
        "hosts": "all",
        "gather_facts": False,
        "vars": {"subdirectories": ["p", "q", "r"], "verbose": False},
        "roles": [f"bench_role{index}" for index in range(ROLES)],
        "tasks": make_tasks(play_tasks, next_number),
        "handlers": handlers,
    }
    playbook = root / "site.yml"
    dump(playbook, [play])
    return playbook


def count_tasks(plan: Any) -> int:
    """Tasks in the plan's play sections, blocks opened (handlers apart; the dependency role counts once)."""

    def leaves(ids: list[int]) -> int:
        nodes = [plan.tasks[task_id] for task_id in ids]
        return sum(leaves(node.block + node.rescue + node.always) if node.kind == "block" else 1 for node in nodes)

    return sum(leaves(section) for play in plan.plays for section in play.sections)


def time_compiler(playbook: Path, runs: int) -> tuple[list[float], int]:
    from runner.compiler import CompileOptions, Compiler

    timings, tasks = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        plan = Compiler(CompileOptions(roles_path=[playbook.parent / "roles"])).compile_playbooks([playbook])
        timings.append(time.perf_counter() - started)
        tasks = count_tasks(plan)
    return timings, tasks


def time_command(arguments: list[str], cwd: Path, runs: int) -> list[float]:
    """Wall times of ``provisioning-playbook ARGUMENTS``; a failure stops the benchmark with its output."""
    command = [str(Path(sys.executable).parent / "provisioning-playbook"), *arguments]
    timings = []
    for _ in range(runs):
        started = time.perf_counter()
        completed = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
        timings.append(time.perf_counter() - started)
        if completed.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{completed.stdout}{completed.stderr}")
    return timings


def compiler_available() -> bool:
    try:
        import runner.compiler  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", type=int, default=1000, help="tasks in the generated playbook (default 1000)")
    parser.add_argument("--runs", type=int, default=5, help="repetitions; medians are reported (default 5)")
    parser.add_argument("--keep", type=Path, help="write the generated project here and keep it")
    arguments = parser.parse_args(argv)
    if arguments.tasks < ROLES + BASE_ROLE_TASKS + 10:
        parser.error(f"--tasks must be at least {ROLES + BASE_ROLE_TASKS + 10}")
    if not compiler_available():
        print("runner.compiler is not available yet: the compile benchmark needs the playbook compiler "
              "(issue 3). Nothing measured.")
        return 3
    with tempfile.TemporaryDirectory(prefix="compile-bench-") as temporary:
        root = arguments.keep or Path(temporary)
        playbook = write_project(root, arguments.tasks)
        compile_times, tasks = time_compiler(playbook, arguments.runs)
        syntax_times = time_command(["--syntax-check", str(playbook)], root, arguments.runs)
        # the same command with nothing to compile: what start-up alone costs
        startup_times = time_command(["--help"], root, arguments.runs)
    print(f"generated playbook: {tasks} tasks in the plan ({arguments.tasks} written), {ROLES + 1} roles")
    print(f"compiler API:              median {statistics.median(compile_times):.3f} s "
          f"(first {compile_times[0]:.3f} s, {arguments.runs} runs)")
    print(f"provisioning-playbook --syntax-check: median {statistics.median(syntax_times):.3f} s, of which "
          f"start-up (--help) {statistics.median(startup_times):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
