"""Running a piece of module code in a process whose files may not grow beyond a limit.

Its writes then fail as they would on a full disk (EFBIG, "File too large", instead of ENOSPC), with no root and
no small filesystem needed; the test process itself is not limited.
"""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

FILE_LIMIT = 4096
TOO_LARGE = "[Errno 27] File too large"
ROOT = Path(__file__).resolve().parents[2]


def run_with_file_limit(script: str, *args: str) -> Any:
    """Run ``script`` (Python source: the project's root is on its path, ``args`` are its ``sys.argv[1:]``) with
    files limited to FILE_LIMIT bytes; return what it printed as JSON."""
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write instead of killing the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_LIMIT, FILE_LIMIT))

    source = f"import sys\nsys.path.insert(0, {str(ROOT)!r})\n{script}"
    done = subprocess.run([sys.executable, "-c", source, *args], preexec_fn=limit, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
