"""``python -m bench.compat``: run ansible-core's integration targets with our CLIs or with ansible-core.

    python -m bench.compat [--runner ours|ansible] [--group G] [--expected] [TARGET ...] [--jobs N]
    python -m bench.compat --write-selection          # regenerate selection.yml from the sdist's aliases
    python -m bench.compat --write-baseline RESULTS.json    # ansible-core's pass list from its run's results
    python -m bench.compat --table                    # per group: expected.txt among ansible-core's passes
    python -m bench.compat --table OURS.json ANSIBLE.json   # the same table from two runs' results
    python -m bench.compat --ansible-core-version 2.21.5 --runner ansible ...   # another version's targets
    python -m bench.compat --ansible-core-version 2.21.5 --expected   # its regression list, expected-2.21.5.txt

Prints one line per target as it ends and ``N passed, M failed``; exit 0 when every target passed, 1 when
one failed, 5 for bad options.
"""

from __future__ import annotations

import argparse
import json
import queue
import signal
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bench.compat import baseline, report, runners, sdist
from bench.compat.execute import Interrupted, Outcome, run_target, stop_all
from bench.compat.hosts import BASE_ADDRESS, start_host_pairs
from bench.compat.selection import GROUPS, load_selection, selection_file, write_selection
from bench.compat.targets import TargetSet
from bench.hosts import HostSet

EXPECTED_FILE = Path(__file__).with_name("expected.txt")
RESULTS_ROOT = Path(__file__).resolve().parent.parent / "results" / "compat"
BAD_OPTIONS = 5


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.compat", description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help="targets to run (default: the selection)")
    parser.add_argument("--runner", choices=("ours", "ansible"), default="ours")
    parser.add_argument("--group", choices=GROUPS, action="append", help="run a group of the selection")
    parser.add_argument("--expected", action="store_true",
                        help="run the targets expected to pass (expected.txt; expected-X.Y.Z.txt for another "
                             "--ansible-core-version), those of --group's groups if given")
    parser.add_argument("--jobs", type=int, default=1,
                        help="targets run at once, each on its own two hosts (default 1)")
    parser.add_argument("--resume", action="store_true",
                        help="add to --log-dir's results.json, skipping the targets it has (unless named)")
    parser.add_argument("--retry-killed", action="store_true",
                        help="with --resume, run again the targets killed at the time limit (a busy machine)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per target (default 300)")
    parser.add_argument("--log-dir", type=Path, help="where logs and results.json go")
    parser.add_argument("--ansible-venv", type=Path, help="a venv with ansible-core at --ansible-core-version")
    parser.add_argument("--ansible-core-version", default=sdist.ANSIBLE_CORE_VERSION, metavar="X.Y.Z",
                        help="whose targets (its sdist, its selection file) and which ansible-core --runner ansible "
                             f"runs (default {sdist.ANSIBLE_CORE_VERSION}, the pin)")
    parser.add_argument("--base-address", type=int, default=BASE_ADDRESS,
                        help=f"first 127.0.0.N of the test hosts, two per job (default {BASE_ADDRESS})")
    parser.add_argument("--keep-hosts", action="store_true",
                        help="leave the test hosts running at the end, for the next run to reuse")
    parser.add_argument("--write-selection", action="store_true", help="regenerate selection.yml and exit")
    parser.add_argument("--write-baseline", type=Path, metavar="RESULTS",
                        help="write ansible-core's pass list (ansible-core-X.Y.Z.txt) from a --runner ansible "
                             "run's results.json and exit")
    parser.add_argument("--table", nargs="*", type=Path, metavar="RESULTS",
                        help="print the per-group table and exit: expected.txt among the pinned ansible-core's "
                             "baseline file, or of two results.json files (OURS ANSIBLE) when given")
    args = parser.parse_args(argv)
    if args.table is not None and len(args.table) not in (0, 2):
        parser.error("--table takes no file, or two: OURS.json ANSIBLE.json")
    if args.jobs < 1 or args.timeout <= 0:
        parser.error("--jobs and --timeout must be positive")
    if args.resume and not args.log_dir:
        parser.error("--resume needs the --log-dir of the run to go on with")
    return args


def expected_file(version: str = sdist.ANSIBLE_CORE_VERSION) -> Path:
    """The regression list of a version's targets: expected.txt for the pin, expected-X.Y.Z.txt for another."""
    if version == sdist.ANSIBLE_CORE_VERSION:
        return EXPECTED_FILE
    return EXPECTED_FILE.with_name(f"expected-{version}.txt")


def read_expected(version: str = sdist.ANSIBLE_CORE_VERSION) -> list[str]:
    path = expected_file(version)
    if not path.exists():
        raise SystemExit(_bad_options(f"{path} does not exist: ansible-core {version} has no regression list"))
    return baseline.read_names(path)


def chosen_targets(args: argparse.Namespace, targets: TargetSet) -> list[str]:
    groups = load_selection(selection_file(targets.version))
    if args.targets:
        names = list(args.targets)
    elif args.expected:
        names = read_expected(targets.version)
        if args.group:  # the expected targets of those groups
            chosen = {name for group in args.group for name in groups[group]}
            names = [name for name in names if name in chosen]
    else:
        names = [name for group in (args.group or GROUPS) for name in groups[group]]
    unknown = [name for name in names if name not in targets]
    if unknown:
        raise SystemExit(_bad_options(f"no such target in ansible-core {targets.version}: "
                                      + ", ".join(unknown)))
    return names


def _bad_options(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return BAD_OPTIONS


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.table is not None:
        print(_table(args.table, args.ansible_core_version), end="")
        return 0
    if args.write_baseline:
        return _write_baseline(args.write_baseline)
    try:
        targets = TargetSet(sdist.targets_dir(args.ansible_core_version), args.ansible_core_version)
    except sdist.SdistError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    if args.write_selection:
        print(f"wrote {write_selection(targets, targets.version)}")
        return 0
    names = chosen_targets(args, targets)
    runner = runners.runner_named(args.runner, args.ansible_venv, targets.version)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    log_dir = args.log_dir or RESULTS_ROOT / f"{args.runner}-{stamp}"
    log_dir.mkdir(parents=True, exist_ok=True)
    version = targets.version if args.runner == "ansible" else _our_version()
    results = report.Results(log_dir / "results.json", args.runner, version, args.resume, targets.version,
                             args.timeout)
    if not args.targets:  # targets named on the command line run again, their results replaced
        names = [name for name in names if name not in results.done(args.retry_killed)]
    envs = start_host_pairs(args.base_address, min(args.jobs, max(len(names), 1)))
    try:
        outcomes = run_all(args, names, targets, runner, log_dir, results, [hosts for _, hosts in envs])
    finally:
        if not args.keep_hosts:
            for env, _ in envs:
                env.down()
    print(report.summary(outcomes), flush=True)
    return 0 if all(outcome.passed for outcome in outcomes) else 1


def _table(results: list[Path], version: str) -> str:
    groups = load_selection(selection_file(version))
    if results:
        return report.group_table(groups, *results)
    path = baseline.baseline_file(version)
    if not path.exists():
        raise SystemExit(_bad_options(f"{path} does not exist: write it with --write-baseline"))
    return report.list_table(groups, set(read_expected(version)), set(baseline.read_names(path)), version,
                             baseline.read_failed(path), _across_groups(version))


API_PLUGINS_ROW = "*shipping Ansible-API plugins (any group)*"


def _across_groups(version: str) -> dict[str, set[str]]:
    """The table's rows that cut across the groups, read from the targets' own files: those that ship code
    written against Ansible's API (``Target.ships_api_plugins``). Left out when the sdist cannot be had."""
    try:
        targets = TargetSet(sdist.targets_dir(version), version)
    except sdist.SdistError as error:
        print(f"warning: no row of the targets shipping Ansible-API plugins: {error}", file=sys.stderr)
        return {}
    return {API_PLUGINS_ROW: {target.name for target in targets if target.ships_api_plugins}}


def _write_baseline(results: Path) -> int:
    try:
        version = json.loads(results.read_text())["version"]
        groups = load_selection(selection_file(version))
        path = baseline.write_baseline(results, [name for names in groups.values() for name in names])
    except (OSError, ValueError, KeyError) as error:
        print(f"error: {results}: {error}", file=sys.stderr)
        return BAD_OPTIONS
    print(f"wrote {path}")
    return 0


def run_all(args: argparse.Namespace, names: list[str], targets: TargetSet, runner: runners.Runner, log_dir: Path,
            results: report.Results, host_sets: list[HostSet]) -> list[Outcome]:
    """Every target, ``args.jobs`` at a time, each on a host pair no other running target has."""
    print(f"{len(names)} targets with {args.runner}; logs in {log_dir}", flush=True)
    free_hosts: queue.Queue[HostSet] = queue.Queue()
    for hosts in host_sets:
        free_hosts.put(hosts)
    with tempfile.TemporaryDirectory(prefix="compat-") as work_base:
        def run(name: str) -> Outcome:
            hosts = free_hosts.get()
            try:
                outcome = run_target(targets[name], targets, runner, hosts, log_dir, Path(work_base), args.timeout)
            except Interrupted:
                raise
            except Exception as error:  # the harness failed on this target: say so, go on with the others
                outcome = Outcome(name, False, None, 0.0, log_dir / f"{name}.log", f"harness error: {error!r}")
            finally:
                free_hosts.put(hosts)
            results.record(outcome)
            print(report.line(outcome), flush=True)
            return outcome

        pool = ThreadPoolExecutor(max_workers=args.jobs)
        try:
            outcomes = list(pool.map(run, names))
        except BaseException:  # ^C or SIGTERM: end the runs under way, start no other
            pool.shutdown(wait=False, cancel_futures=True)
            stop_all()
            pool.shutdown(wait=True)
            raise
        pool.shutdown()
    return outcomes


def _our_version() -> str:
    from importlib.metadata import version

    return version("provisioning")


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminate)
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        sys.exit(99)
