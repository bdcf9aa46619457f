"""What a warm controller may import ahead: modules of the standard library, the installed packages and the
project, never those that read the run's configuration when imported."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.ansible_core import ensure_ansible_core_importable


def test_ansible_core_is_never_imported_ahead() -> None:
    ensure_ansible_core_importable()
    # in a fresh interpreter, so that what this test session imported does not count
    script = ("import json, ansible.constants, email.message, runner.errors\n"
              "from runner.warm.preload import preloadable\n"
              "print(json.dumps(preloadable(['ansible', 'ansible.constants', 'ansible_collections', 'email.message',"
              " 'runner.errors'])))\n")
    listed = json.loads(subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                                       check=True).stdout)
    assert listed == ["email.message", "runner.errors"]
