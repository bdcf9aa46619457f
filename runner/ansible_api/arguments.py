"""The arguments an Ansible-API module receives: the task's, plus the ``_ansible_*`` keys ansible-core 2.19's
action plugin adds (``ActionBase._update_module_args`` and ``executor/module_common.py``), which
``AnsibleModule`` reads for check mode, diff, no_log, its temp directories and its logging."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.ansible_api.core import ansible_core_version, pass_vars

# ansible-core's defaults for what this runner has no setting of.
SELINUX_SPECIAL_FS = ["fuse", "nfs", "vboxsf", "ramfs", "9p", "vfat"]
SYSLOG_FACILITY = "LOG_USER"
REMOTE_TMP = "~/.ansible/tmp"
SHELL_EXECUTABLE = "/bin/sh"


@dataclass(frozen=True)
class ModuleRunContext:
    """What the task says about how the module runs."""

    module_name: str  # as the task names it (``my_module``, ``community.general.foo``)
    check: bool = False
    diff: bool = False
    no_log: bool = False
    verbosity: int = 0
    syslog_facility: str = SYSLOG_FACILITY
    remote_tmp: str = REMOTE_TMP
    shell_executable: str = SHELL_EXECUTABLE
    keep_remote_files: bool = False
    tmpdir: str | None = None  # the task's temporary directory on the host, if an action plugin made one


def module_args(params: dict[str, Any], context: ModuleRunContext, *, all_internal: bool = False) -> dict[str, Any]:
    """``ANSIBLE_MODULE_ARGS``: the task's ``params`` and the ``_ansible_*`` keys the installed ansible-core
    accepts (``all_internal``: every one, for modules that do not use AnsibleModule and may run without
    ansible-core). ``_ansible_tmpdir`` is None unless an action plugin made the task's temporary directory, as
    when ansible-core pipelines a module: AnsibleModule then makes its own under ``_ansible_remote_tmp`` (the
    task's ``ansible_remote_tmp``) and removes it when the module ends."""
    passed = {
        "check_mode": context.check,
        "no_log": context.no_log,
        "debug": False,
        "diff": context.diff,
        "verbosity": context.verbosity,
        "version": ansible_core_version(),
        "module_name": context.module_name,
        "syslog_facility": context.syslog_facility,
        "selinux_special_fs": SELINUX_SPECIAL_FS,
        "socket": None,
        "shell_executable": context.shell_executable,
        "keep_remote_files": context.keep_remote_files,
        "tmpdir": context.tmpdir,
        "remote_tmp": context.remote_tmp,
        "ignore_unknown_opts": False,
        "target_log_info": None,
        "string_conversion_action": "warn",  # before 2.19
        "tracebacks_for": [],  # 2.19 on
    }
    accepted = pass_vars()
    return {**params, **{f"_ansible_{key}": value for key, value in passed.items()
                         if key in accepted or (all_internal and not accepted)}}
