"""What every task of a playbook run shares, from the command line and the configuration."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from runner.connection import ConnectionSettings


@dataclass
class RunOptions:
    """What every task of the run shares (from the command line and the configuration)."""

    defaults: ConnectionSettings
    check: bool = False
    diff: bool = False
    extra_vars: dict[str, Any] = field(default_factory=dict)
    library: list[Path] = field(default_factory=list)
    collections_path: list[Path] = field(default_factory=list)
    verbosity: int = 0
    playbook_dir: str = "."
    force_handlers: bool = False
    magic_vars: dict[str, Any] = field(default_factory=dict)  # run-wide magic variables (runner.cli.run_magic)
    host_pattern_mismatch: str = "warning"  # what a play's pattern term that matches nothing does
    hash_behaviour: str = "replace"  # merge: a mapping variable merges with the same name's at lower levels
    module_rlimit_nofile: int = 0  # python_module_rlimit_nofile: modules' open files limit, 0 the host's
    error_on_missing_handler: bool = True  # a change notifying no handler stops the run (else a warning)
    inject_invocation: bool = False  # inject_invocation: module results carry their arguments (ansible-core 2.21)
