"""The benchmark's scripts import each other as top-level modules (they run as ``python3 bench/run.py``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
