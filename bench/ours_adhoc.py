"""Interim driver: apply bench/workload.yml through the ad-hoc library API, one task at a time.

Used only while ``provisioning-playbook`` cannot run yet. Each task is one ``run_adhoc`` call over all hosts
(loops become one call per item); modules the runner does not have yet are skipped with a note. It prints
an Ansible-style recap so the benchmark reads its changes the same way.

    python3 bench/ours_adhoc.py WORKLOAD INVENTORY FORKS BENCH_DIR
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

from runner.connection import ConnectionSettings
from runner.executor.adhoc import AdhocRun, run_adhoc
from runner.inventory import load_inventory
from runner.loader.yaml import load_yaml_file
from runner.module_index import ModuleIndex
from runner.parsing.kv import parse_kv

# Task keywords the workload uses besides its module; the interim driver ignores what they do
TASK_KEYWORDS = {"name", "loop", "register", "changed_when"}


def _module_and_args(task: dict[str, Any], index: ModuleIndex) -> tuple[str, dict[str, Any]]:
    (module,) = [key for key in task if key not in TASK_KEYWORDS]
    args = task[module]
    if isinstance(args, str):
        free_form = index.get(module).free_form if index.find(module) else None
        args = parse_kv(args, check_raw=free_form is not None)
        if free_form and "_raw_params" in args:
            args[free_form] = args.pop("_raw_params")
    return module, dict(args)


def main(workload: str, inventory_path: str, forks: str, bench_dir: str) -> int:
    (play,) = load_yaml_file(workload)
    inventory = load_inventory([inventory_path])
    hosts = [host.name for host in inventory.get_hosts(play["hosts"])]
    index = ModuleIndex()
    changed: Counter[str] = Counter()
    ok: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for task in play["tasks"]:
        module, args = _module_and_args(task, index)
        if index.find(module) is None:
            print(f"TASK [{task['name']}] skipped: module {module} does not exist yet")
            continue
        print(f"TASK [{task['name']}]")
        for item in task.get("loop", [None]):
            run = AdhocRun(hosts=hosts, module=module, args=args, host_vars=inventory.host_vars,
                           defaults=ConnectionSettings(name="", address=""), forks=int(forks),
                           extra_vars={"bench_dir": bench_dir, "item": item})

            def record(host: str, result: dict[str, Any], task: dict[str, Any] = task) -> None:
                if result.get("failed") or result.get("unreachable"):
                    failed[host] += 1
                    print(f"fatal: [{host}]: {result.get('msg')}")
                elif result.get("changed") and "changed_when" not in task:
                    changed[host] += 1
                else:
                    ok[host] += 1

            run_adhoc(run, record)
    print("\nPLAY RECAP")
    for host in hosts:
        print(f"{host} : ok={ok[host] + changed[host]} changed={changed[host]} unreachable=0 failed={failed[host]}")
    return 2 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
