"""Ad-hoc output, as Ansible's minimal and oneline callbacks print it.

    web1 | CHANGED | rc=0 >>          (command-like modules: their stdout follows)
    web1 | SUCCESS => { ... }         (other modules: the result as JSON)
    web1 | FAILED! => { ... }
    web1 | UNREACHABLE! => { ... }
"""

from __future__ import annotations

import json
from typing import Any, TextIO

from runner.callbacks.diff import render_diff
from runner.callbacks.log_file import LogFile
from runner.callbacks.results import debug_view, short_module
from runner.callbacks.terminal import Terminal

COMMAND_MODULES = {"command", "shell", "raw", "script"}
# Printed as [WARNING]/[DEPRECATION WARNING] lines of their own, never inside the result, at any verbosity.
_SHOWN_APART = {"warnings", "deprecations"}
_HIDDEN_KEYS = {"_ansible_no_log", "invocation", "stdout_lines", "stderr_lines", "exception", "diff"}


def _state(result: dict[str, Any]) -> tuple[str, str]:
    if result.get("unreachable"):
        return "UNREACHABLE!", "unreachable"
    if result.get("failed"):
        return "FAILED!", "failed"
    if result.get("skipped"):
        return "SKIPPED", "skipped"
    if result.get("changed"):
        return "CHANGED", "changed"
    return "SUCCESS", "ok"


class AdhocDisplay:
    def __init__(self, *, one_line: bool = False, verbosity: int = 0, stream: TextIO | None = None,
                 nocolor: bool = False, force_color: bool = False, log: LogFile | None = None):
        self.one_line = one_line
        self.verbosity = verbosity
        self.out = Terminal(stream, nocolor=nocolor, force_color=force_color, log=log)

    def _visible(self, module: str, result: dict[str, Any]) -> dict[str, Any]:
        hidden = _SHOWN_APART | (set() if self.verbosity >= 3 else _HIDDEN_KEYS)
        # ansible-core's internal keys (``_ansible_verbose_always`` ...) are never shown
        visible = {k: v for k, v in result.items() if k not in hidden and not k.startswith("_ansible_")}
        # debug shows what it was asked to show, as in a playbook (a failure keeps its keys: they explain it)
        return debug_view(visible) if short_module(module) == "debug" and not result.get("failed") else visible

    def host_result(self, host: str, module: str, result: dict[str, Any]) -> None:
        label, state = _state(result)
        for warning in result.get("warnings") or ():  # before the result, as Ansible's callbacks print them
            self.warning(warning)
        if result.get("diff"):  # modules return a diff only when --diff asked for one; Ansible prints it first
            self.out.line(render_diff(result["diff"], color=self.out.color).removesuffix("\n"))
        if module in COMMAND_MODULES and "rc" in result and not result.get("unreachable"):
            text = self._command_text(host, label, result)
        elif self.one_line:
            text = f"{host} | {label} => {json.dumps(self._visible(module, result), sort_keys=True, default=str)}"
        else:
            body = json.dumps(self._visible(module, result), indent=4, sort_keys=True, default=str)
            text = f"{host} | {label} => {body}"
        if result.get("exception") and self.verbosity >= 1:
            text += "\n" + str(result["exception"]).rstrip()
        self.out.line(text, state)

    def _command_text(self, host: str, label: str, result: dict[str, Any]) -> str:
        label = label.rstrip("!") if label == "FAILED!" else label
        stdout = str(result.get("stdout", "") or "")
        stderr = str(result.get("stderr", "") or "")
        if self.one_line:
            out = stdout.replace("\n", "\\n")
            err = f" (stderr) {stderr.rstrip()}".replace("\n", "\\n") if stderr else ""
            return f"{host} | {label} | rc={result['rc']} | (stdout) {out}{err}"
        text = f"{host} | {label} | rc={result['rc']} >>\n{stdout}"
        if stderr:
            text += ("\n" if stdout else "") + stderr.rstrip("\n")
        if result.get("failed") and result.get("msg") and not stdout and not stderr:
            text += str(result["msg"])
        return text.rstrip("\n")

    def warning(self, message: str) -> None:
        self.out.warning(message, wrap=False)

    def list_hosts(self, hosts: list[str]) -> None:
        self.out.line(f"  hosts ({len(hosts)}):")
        for host in hosts:
            self.out.line(f"    {host}")
