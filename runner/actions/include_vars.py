"""``include_vars``: variables from a file or a directory of files on the controller, for the host's later tasks.

Follows Ansible's action: a directory is walked in sorted order (symlinks followed) down to ``depth``, its files
filtered by ``files_matching`` (a regular expression searched in the name), ``ignore_files`` (expressions
matching the name's end) and ``extensions`` (a file with another one fails the task unless
``ignore_unknown_extensions``); ``hash_behaviour: merge`` merges mappings into the variables of the same names the
host already has. Its own failures carry ``message``, the key Ansible's playbooks read, beside ``msg``.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.errors import UserError
from runner.secrets.detect import is_encrypted_file
from runner.templating.filters.structures import merge_dicts

DIRECTORY_OPTIONS = ("dir", "depth", "files_matching", "ignore_files", "extensions", "ignore_unknown_extensions")
FILE_OPTIONS = ("file", "_raw_params")


class IncludeFailed(Exception):
    """The task fails with this message, under both msg and Ansible's message."""


async def run_include_vars(ctx: ActionContext) -> dict[str, Any]:
    if any(name in ctx.args for name in DIRECTORY_OPTIONS) and any(name in ctx.args for name in FILE_OPTIONS):
        return _failed("You are mixing file only and dir only arguments, these are incompatible")
    params = action_arguments(ctx)
    try:
        if params.get("dir"):
            files, values = _load_directory(ctx, params)
        else:
            files, values = _load_file(ctx, params)
    except IncludeFailed as exc:
        return _failed(str(exc))
    if params.get("name"):
        values = {params["name"]: values}
    if params.get("hash_behaviour") == "merge":
        values = merge_dicts({key: ctx.task_vars[key] for key in values if key in ctx.task_vars}, values,
                             recursive=True, list_merge="replace")
    # Its own level, below set_fact's: a set_fact value keeps winning over an include_vars value set later.
    ctx.state.include_vars(ctx.host, values)
    result = {"changed": False, "ansible_included_var_files": [str(p) for p in files], "ansible_facts": values}
    if any(is_encrypted_file(path) for path in files):
        result["_ansible_no_log"] = True  # as ansible-core: nothing of what an encrypted file holds is shown
    return result


def _failed(message: str) -> dict[str, Any]:
    return {"failed": True, "changed": False, "msg": message, "message": message}


def _load_file(ctx: ActionContext, params: Mapping[str, Any]) -> tuple[list[Path], dict[str, Any]]:
    source = str(params.get("file") or params.get("_raw_params") or "").rstrip("\n")
    if not source:
        raise IncludeFailed("Could not find file: include_vars needs a file or dir")
    paths = ctx.candidates(source, "vars")
    found = next((path for path in paths if path.is_file()), None)
    if found is None:
        raise IncludeFailed(f"Could not find or access '{source}' (searched: {', '.join(str(p) for p in paths)})")
    return [found], _read(found)


def _load_directory(ctx: ActionContext, params: Mapping[str, Any]) -> tuple[list[Path], dict[str, Any]]:
    source = str(params["dir"])
    paths = ctx.candidates(source, "vars")
    top = next((path for path in paths if path.exists()), paths[0] if paths else Path(source))
    if not top.exists():
        raise IncludeFailed(f"{source} directory does not exist")
    if not top.is_dir():
        raise IncludeFailed(f"{source} is not a directory")
    extensions = [str(extension) for extension in params.get("extensions") or []]
    matcher = _compile(params.get("files_matching") or "")
    ignored = [_compile(f"{pattern}$") for pattern in _names(params.get("ignore_files"))]
    files: list[Path] = []
    values: dict[str, Any] = {}
    for path in _walk(top, int(params.get("depth") or 0)):
        if (params.get("files_matching") and not matcher.search(path.name)) \
                or any(pattern.search(path.name) for pattern in ignored):
            continue
        if path.suffix[1:] not in extensions:
            if params.get("ignore_unknown_extensions"):
                continue
            raise IncludeFailed(f"{path} does not have a valid extension: {', '.join(extensions)}")
        values.update(_read(path))
        files.append(path)
    return files, values


def _walk(top: Path, depth: int) -> Iterator[Path]:
    """Files under ``top``, directory by directory in sorted order, no deeper than ``depth`` (0: any depth)."""
    for root, _, names in sorted(os.walk(top, followlinks=True), key=lambda entry: entry[0]):
        if depth and len(Path(root).relative_to(top).parts) + 1 > depth:
            continue
        yield from (Path(root) / name for name in sorted(names))


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return value.split()
    return [str(item) for item in value]


def _compile(pattern: str) -> re.Pattern[str]:
    try:
        return re.compile(pattern)
    except re.error as exc:
        raise IncludeFailed(f"Invalid regular expression: {pattern} ({exc})") from None


def _read(path: Path) -> dict[str, Any]:
    from runner.loader.yaml import load_yaml_file

    try:
        data = load_yaml_file(path)
    except UserError as exc:
        raise IncludeFailed(exc.render(with_excerpt=False)) from None
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise IncludeFailed(f"{path} must be stored as a dictionary/hash")
    return dict(data)
