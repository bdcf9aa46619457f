"""ansible-core's own pass list, kept in the repository beside expected.txt: the targets ansible-core passes
through this harness on these hosts, written from an ``--runner ansible`` run's results.json.

The figure that matters is ours among ansible-core's passes: a target ansible-core fails here says nothing
about us. Keeping its list in the repository lets the table be computed from expected.txt at any time, without
a new baseline run (hours on the shared machine).
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.compat.sdist import ANSIBLE_CORE_VERSION

COMPAT_DIR = Path(__file__).parent
FAILS = "# fails: "


def baseline_file(version: str = ANSIBLE_CORE_VERSION) -> Path:
    return COMPAT_DIR / f"ansible-core-{version}.txt"


def read_names(path: Path) -> list[str]:
    """The names of a list file (expected.txt, a baseline): one a line, ``#`` starts a comment."""
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def read_failed(path: Path) -> set[str]:
    """The targets a baseline file lists as failing with ansible-core (its ``# fails:`` comments)."""
    found = set()
    for line in path.read_text().splitlines():
        if line.startswith(FAILS):
            found.add(line[len(FAILS):].split(" (", 1)[0].strip())
    return found


def render(results: dict, selected: list[str], timeout: float | None) -> str:
    """The baseline file's text from an ansible runner's results.json data: a header saying how it was made,
    the passing targets one a line, then every other selected target as a comment saying why it is not there."""
    if results.get("runner") != "ansible":
        raise ValueError(f"a baseline comes from a --runner ansible run, not {results.get('runner')!r}")
    version = results["version"]
    measured = results["targets"]
    passed = sorted(name for name, result in measured.items() if result["passed"])
    failed = sorted(name for name, result in measured.items() if not result["passed"])
    missing = sorted(name for name in selected if name not in measured)
    limit = f", {timeout:.0f} s per target" if timeout else ""
    header = [
        f"# Targets of ansible-core {version}'s test/integration/targets that pass with ansible-core {version}",
        "# itself through this harness, on this project's test hosts: 'python -m bench.compat --runner ansible",
        f"# --ansible-venv VENV' (ansible-core {version} in VENV){limit}, measured {results['date']}. A target",
        "# killed at the time limit (a loaded machine) is listed below as such: '--resume --retry-killed' runs it",
        "# again. Written by 'python -m bench.compat --write-baseline RESULTS.json': regenerate, do not edit.",
        f"# {len(passed)} of the {len(measured)} targets run pass; the others, and those not run, follow as comments.",
    ]
    body = list(passed)
    body += [f"{FAILS}{name} ({_why(measured[name])})" for name in failed]
    body += [f"# not run: {name}" for name in missing]
    return "\n".join(header + body) + "\n"


def _why(result: dict) -> str:
    return "killed at the time limit" if result["rc"] is None else f"rc={result['rc']}"


def write_baseline(results_path: Path, selected: list[str]) -> Path:
    results = json.loads(results_path.read_text())
    path = baseline_file(results["version"])
    path.write_text(render(results, selected, results.get("timeout")))
    return path
