"""``include_vars``: variables from a file or a directory of files on the controller, for the host's later tasks."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.errors import UserError


async def run_include_vars(ctx: ActionContext) -> dict[str, Any]:
    from runner.loader.yaml import load_yaml_file

    params = action_arguments(ctx)
    source = params.get("file") or params.get("_raw_params") or params.get("dir")
    if not source:
        return {"failed": True, "msg": "include_vars needs a file or dir"}
    paths = ctx.candidates(str(source), "vars")
    files = _files_at(paths, params.get("extensions") or ["yaml", "yml", "json"])
    if files is None:
        return {"failed": True, "msg": f"Could not find or access '{source}' (searched: "
                                       f"{', '.join(str(p) for p in paths)})"}
    values: dict[str, Any] = {}
    for path in files:
        try:
            data = load_yaml_file(path) or {}
        except UserError as exc:
            return {"failed": True, "msg": exc.render(with_excerpt=False)}
        if not isinstance(data, Mapping):
            return {"failed": True, "msg": f"{path} must be a mapping of variables"}
        values.update(data)
    if params.get("name"):
        values = {params["name"]: values}
    # Its own level, below set_fact's: a set_fact value keeps winning over an include_vars value set later.
    ctx.state.include_vars(ctx.host, values)
    return {"changed": False, "ansible_included_var_files": [str(p) for p in files], "ansible_facts": values}


def _files_at(paths: list[Path], suffixes: list[str]) -> list[Path] | None:
    """The first candidate that exists: a file, or a directory's files with one of ``suffixes``, in order."""
    for candidate in paths:
        if candidate.is_file():
            return [candidate]
        if candidate.is_dir():
            return sorted(p for p in candidate.rglob("*") if p.is_file() and p.suffix.lstrip(".") in suffixes)
    return None
