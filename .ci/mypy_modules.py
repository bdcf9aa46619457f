"""Type-check the module library (``modules/``, the code that runs on the hosts) against a baseline that cannot grow.

The hosts' Python is 3.8 and up; mypy cannot target anything older than 3.10, so the library is checked with
``--python-version 3.10`` (docs/decisions.md). ``.ci/mypy-modules-baseline.txt`` lists, per file, how many errors
that file still has: a file with more errors than its line says (or with errors and no line) fails the check, and
so does a file with fewer, so that the baseline is lowered in the change that fixes them and never creeps back.

    .venv/bin/python .ci/mypy_modules.py            # check
    .venv/bin/python .ci/mypy_modules.py --update   # rewrite the baseline from the current errors
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / ".ci" / "mypy-modules-baseline.txt"
_ERROR = re.compile(r"^(modules/[^:]+\.py):\d+: error: ")


def current_errors() -> tuple[Counter[str], str]:
    done = subprocess.run([sys.executable, "-m", "mypy", "--python-version", "3.10", "--no-error-summary", "modules"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1):  # 2: mypy itself failed (a crash, a bad option), not a type error
        sys.exit(f"mypy failed (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    counts: Counter[str] = Counter()
    for line in done.stdout.splitlines():
        match = _ERROR.match(line)
        if match:
            counts[match.group(1)] += 1
    return counts, done.stdout


def read_baseline() -> Counter[str]:
    counts: Counter[str] = Counter()
    for number, line in enumerate(BASELINE.read_text().splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        path, _, count = line.rpartition(" ")
        if not path or not count.isdigit():
            sys.exit(f"{BASELINE.relative_to(ROOT)}:{number}: expected 'modules/FILE.py COUNT', got {line!r}")
        counts[path] = int(count)
    return counts


def main() -> int:
    counts, output = current_errors()
    if sys.argv[1:] == ["--update"]:
        lines = [f"{path} {count}" for path, count in sorted(counts.items())]
        BASELINE.write_text("# mypy errors left per file of modules/ (see .ci/mypy_modules.py); only ever lowered\n"
                            + "".join(line + "\n" for line in lines))
        print(f"baseline: {sum(counts.values())} errors in {len(counts)} files")
        return 0
    baseline = read_baseline()
    grown = {path: count for path, count in counts.items() if count > baseline.get(path, 0)}
    fixed = {path: count for path, count in baseline.items() if counts.get(path, 0) < count}
    for path, count in sorted(grown.items()):
        print(f"{path}: {count} mypy errors, the baseline allows {baseline.get(path, 0)}:")
        print("".join(f"  {line}\n" for line in output.splitlines() if line.startswith(f"{path}:")), end="")
    for path, count in sorted(fixed.items()):
        print(f"{path}: {counts.get(path, 0)} mypy errors, fewer than the baseline's {count}: lower it "
              "(.ci/mypy_modules.py --update)")
    if grown or fixed:
        return 1
    print(f"modules: {sum(counts.values())} mypy errors, as in the baseline ({len(counts)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
