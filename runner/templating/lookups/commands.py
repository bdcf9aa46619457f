"""Lookups that ask the controller's environment: ``env``, ``pipe`` and ``lines`` (commands run locally)."""

from __future__ import annotations

import os
import subprocess
from typing import Any

from runner.templating.errors import TemplateError
from runner.templating.lookups.base import LookupContext
from runner.templating.undefined import DEFAULT_UNDEF, Undefined
from runner.util.unsafe import DescribedText


def env_lookup(terms: list[Any], context: LookupContext, default: Any = "") -> list[Any]:
    """Each variable's value, which says where it came from (``ansible._protomatter.origin``); ``default`` for one
    not set, and for ``default=undef()`` an undefined value naming the variable, as ansible-core's."""
    values: list[Any] = []
    for term in terms:
        name = str(term).split()[0]
        value = os.environ.get(name)
        if value is not None:
            values.append(DescribedText(value, f"<environment variable {name!r}>"))
        else:
            values.append(Undefined(hint=f"The environment variable {name!r} is not set.")
                          if default is DEFAULT_UNDEF else default)
    return values


def _run(command: str, context: LookupContext, lookup: str) -> str:
    playbook_dir = context.variables.get("playbook_dir")
    cwd = str(playbook_dir) if playbook_dir and os.path.isdir(str(playbook_dir)) else None
    try:
        completed = subprocess.run(command, shell=True, cwd=cwd, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise TemplateError(f"lookup '{lookup}': cannot run {command!r}: {exc}") from None
    if completed.returncode != 0:
        raise TemplateError(f"lookup '{lookup}': command {command!r} exited with {completed.returncode}: "
                            f"{completed.stderr.strip()}")
    return completed.stdout


def pipe(terms: list[Any], context: LookupContext) -> list[str]:
    """The standard output of each command, trailing whitespace removed."""
    return [_run(str(term), context, "pipe").rstrip() for term in terms]


def lines(terms: list[Any], context: LookupContext) -> list[str]:
    """Every line of every command's output, one item each."""
    output: list[str] = []
    for term in terms:
        output.extend(_run(str(term), context, "lines").splitlines())
    return output


LOOKUPS = {"env": env_lookup, "pipe": pipe, "lines": lines}
