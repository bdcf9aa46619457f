"""``fetch``: copy a file from the host to the controller, over the host's existing connection.

The host's ``stat`` says whether the file is there and its checksum; the transfer happens only when the
controller's copy differs. The controller's file is written atomically (temp file beside it, then rename).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

from modules._utils import file_checksum
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.util.files import atomic_write_bytes

MISSING = "the remote file does not exist, not transferring, ignored"
DIRECTORY = "remote file is a directory, fetch cannot work on directories"


def destination(ctx: ActionContext, args: dict[str, Any]) -> Path:
    """Where the file goes on the controller: dest/<host>/<src>, or with flat dest itself."""
    src, dest = args["src"], os.path.expanduser(args["dest"])
    if not os.path.isabs(dest):
        base = ctx.task_vars.get("playbook_dir") or os.getcwd()
        dest = os.path.join(str(base), dest)
    if args["flat"]:
        if os.path.isdir(dest) and not dest.endswith(os.sep):
            raise ActionFailed("dest is an existing directory, use a trailing slash if you want to fetch src into "
                               "that directory")
        if dest.endswith(os.sep):
            dest = os.path.join(dest, os.path.basename(src))
        return Path(os.path.normpath(dest))
    host = str(ctx.task_vars.get("inventory_hostname") or ctx.host)
    base = os.path.normpath(os.path.join(dest, host))
    target = os.path.normpath(f"{base}/{src}")
    if not target.startswith(base + os.sep):
        raise ActionFailed(f"Detected directory traversal, expected to be contained in '{base}' but got '{target}'")
    return Path(target)


def _md5(path: Path) -> str | None:
    try:
        return file_checksum(str(path), "md5")
    except ValueError:  # a FIPS controller has no md5
        return None


async def remote_file(ctx: ActionContext, src: str) -> dict[str, Any]:
    """The host's stat of ``src`` (following links, as fetch does)."""
    result = await ctx.run_module("stat", {"path": src, "follow": True, "get_checksum": True, "get_mime": False,
                                           "get_attributes": False})
    if result.get("failed"):
        raise ActionFailed(result.get("msg") or f"cannot read {src}", file=src)
    return result["stat"]


def _not_fetched(msg: str, src: str, fail: bool) -> dict[str, Any]:
    result: dict[str, Any] = {"changed": False, "file": src, "msg": msg}
    if fail:
        result["failed"] = True
    return result


async def fetch(ctx: ActionContext, args: dict[str, Any]) -> dict[str, Any]:
    src = args["src"]
    found = await remote_file(ctx, src)
    if not found.get("exists"):
        return _not_fetched(MISSING, src, args["fail_on_missing"])
    if found.get("isdir"):
        fail = args["fail_on_missing"]
        return _not_fetched(DIRECTORY if fail else DIRECTORY + ", not transferring, ignored", src, fail)
    dest = destination(ctx, args)
    remote_checksum = found.get("checksum")
    local_checksum = file_checksum(str(dest))
    if remote_checksum is not None and remote_checksum == local_checksum:
        return {"changed": False, "file": src, "dest": str(dest), "checksum": local_checksum, "md5sum": _md5(dest)}
    result: dict[str, Any] = {"changed": True, "file": src, "dest": str(dest), "remote_checksum": remote_checksum,
                              "remote_md5sum": None}
    if ctx.check:
        return result
    reply, data = await ctx.session.fetch(src, become=ctx.become)
    if reply.get("failed"):
        raise ActionFailed(reply.get("msg") or f"cannot read {src}", file=src)
    checksum = hashlib.sha1(data).hexdigest()
    if args["validate_checksum"] and remote_checksum is not None and checksum != remote_checksum:
        raise ActionFailed("checksum mismatch", file=src, dest=str(dest), checksum=checksum,
                           remote_checksum=remote_checksum)
    if checksum == local_checksum:  # it changed back while being read: nothing to write
        return {"changed": False, "file": src, "dest": str(dest), "checksum": checksum, "md5sum": _md5(dest)}
    atomic_write_bytes(dest, data, mode=None)
    result.update(checksum=checksum, md5sum=_md5(dest), remote_checksum=remote_checksum or reply.get("checksum"))
    return result


def _wrong_paths(src: Any, dest: Any) -> str | None:
    """Ansible's fetch action's words for a missing or non-text src or dest (the last that applies wins)."""
    wrong = None
    if not isinstance(src, str):
        wrong = "Invalid type supplied for source option, it must be a string"
    if not isinstance(dest, str):
        wrong = "Invalid type supplied for dest option, it must be a string"
    if src is None or dest is None:
        wrong = "src and dest are required"
    return wrong


async def run_fetch(ctx: ActionContext) -> dict[str, Any]:
    if ctx.check:  # as Ansible's fetch action, before its arguments are read
        return {"changed": False, "skipped": True, "msg": "check mode not (yet) supported for this module"}
    wrong = _wrong_paths(ctx.args.get("src"), ctx.args.get("dest"))
    if wrong:
        return {"failed": True, "changed": False, "msg": wrong}
    try:
        return await fetch(ctx, action_arguments(ctx))
    except ActionFailed as failure:
        return failure.result
