"""``copy`` on the controller: read ``src`` here and hand its files to the copy module on the host.

Small files (under ``INLINE_LIMIT``) travel inside the module call, so a typical copy is one round trip. Larger
ones go by checksum alone: the module compares, names a temp path beside each file that differs, the file is
streamed there over the agent's channel, and a second module call moves it into place. Unchanged large files are
never sent. ``content`` and ``remote_src`` need nothing from the controller and go straight to the module.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from modules._utils import file_checksum
from modules.copy import DIRECTORIES, FILES, LINKS, NEEDS, TREE, walk_source_tree
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.actions.secret_sources import decrypted_source, is_encrypted_source, secret_diff
from runner.errors import UserError
from runner.util.masking import NO_LOG_ARGUMENT

INLINE_LIMIT = 1 << 20  # a file below this size travels inside the module call
INLINE_BUDGET = 8 << 20  # at most this much inline content in one call; the rest is streamed when it differs


@dataclass
class LocalFile:
    name: str  # relative to the copy's root (a tree), or the file's own name (a single file)
    path: Path
    size: int
    mode: int
    checksum: str
    plaintext: bytes | None = None  # an encrypted source, decrypted: always sent inline, never from a file

    @classmethod
    def read(cls, name: str, path: Path, decrypt: bool = True) -> LocalFile:
        try:
            info = path.stat()
            checksum = file_checksum(str(path))
        except OSError as exc:
            raise ActionFailed(f"could not read src={path}: {exc.strerror}") from None
        if checksum is None:
            raise ActionFailed(f"could not find src={path}")
        if decrypt and is_encrypted_source(path):
            data = decrypted_source(path)
            return cls(name, path, len(data), info.st_mode & 0o7777, hashlib.sha1(data).hexdigest(), data)
        return cls(name, path, info.st_size, info.st_mode & 0o7777, checksum)

    def entry(self, inline: bool = False, upload: str | None = None) -> dict[str, Any]:
        """How the module receives this file: by checksum, with its content inline, or at an upload path."""
        entry: dict[str, Any] = {"path": self.name, "checksum": self.checksum, "size": self.size, "mode": self.mode}
        if upload is not None:
            entry["upload"] = upload
        elif inline or self.plaintext is not None:
            data = self.plaintext if self.plaintext is not None else self.path.read_bytes()
            try:
                entry["content"] = data.decode("utf-8")
            except UnicodeDecodeError:
                entry["content_b64"] = base64.b64encode(data).decode("ascii")
        return entry


@dataclass
class CopyPlan:
    """What the controller found at ``src``: one file, or a tree of files, directories and links."""

    src: Path
    files: list[LocalFile]
    tree: bool = False
    directories: list[str] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)

    @property
    def has_secrets(self) -> bool:
        return any(local.plaintext is not None for local in self.files)

    def first_call(self) -> dict[str, Any]:
        budget = INLINE_BUDGET
        entries = []
        for local in self.files:
            inline = local.plaintext is not None or (local.size < INLINE_LIMIT and local.size <= budget)
            if inline:
                budget -= local.size
            entries.append(local.entry(inline=inline))
        return {FILES: entries, TREE: self.tree, DIRECTORIES: self.directories, LINKS: self.links}


def plan_source(ctx: ActionContext, args: dict[str, Any]) -> CopyPlan:
    requested = args["src"]
    try:
        src = ctx.find_file(requested)
    except UserError as exc:
        raise ActionFailed(exc.message) from None
    if not src.is_dir():
        return CopyPlan(src, [LocalFile.read(src.name, src, args["decrypt"])])
    # Keep the caller's trailing slash: "dir/" copies the contents, "dir" the directory itself.
    root = str(src) + ("/" if requested.endswith("/") else "")
    tree = walk_source_tree(root, args["local_follow"])
    files = [LocalFile.read(relative, Path(path), args["decrypt"]) for relative, path in tree["files"]]
    return CopyPlan(src, files, tree=True, directories=tree["directories"], links=tree["links"])


async def _stream(ctx: ActionContext, plan: CopyPlan, needs: list[dict[str, str]]) -> list[dict[str, Any]]:
    """Send each file the module asked for to its upload path; return the entries for the second call."""
    by_name = {local.name: local for local in plan.files}
    entries = []
    for need in needs:
        local = by_name[need["path"]]
        reply = await ctx.session.put(local.path, need["upload"], become=ctx.become, temporary=True)
        if reply.get("failed"):
            raise ActionFailed(f"could not send {local.path} to the host: {reply.get('msg')}", dest=need["upload"])
        entries.append(local.entry(upload=need["upload"]))
    return entries


def _merge(first: dict[str, Any], second: dict[str, Any], tree: bool) -> dict[str, Any]:
    """The second call's result, still reporting what the first one changed (directories, small files)."""
    second["changed"] = bool(first.get("changed") or second.get("changed"))
    if tree and (first.get("diff") or second.get("diff")):
        second["diff"] = list(first.get("diff") or []) + list(second.get("diff") or [])
    return second


async def send(ctx: ActionContext, plan: CopyPlan) -> dict[str, Any]:
    base = {key: value for key, value in ctx.args.items() if key != "content"}
    base["src"] = str(plan.src)
    first = await ctx.run_module(args={**base, **plan.first_call()})
    needs = first.pop(NEEDS, None)
    if not needs or first.get("failed"):
        return first
    try:
        entries = await _stream(ctx, plan, needs)
    except ActionFailed:
        for need in needs:  # the paths the module named for uploads: nothing will use them now
            await ctx.run_module("file", {"path": need["upload"], "state": "absent"})
        raise
    second = await ctx.run_module(args={**base, FILES: entries, TREE: plan.tree, DIRECTORIES: [], LINKS: []})
    if second.pop(NEEDS, None):
        return {**second, "failed": True, "msg": "the destination changed while the copy was sent; run it again"}
    return _merge(first, second, plan.tree)


async def run_copy(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
        if args["remote_src"] or args["content"] is not None:
            return _content_censored(ctx, await ctx.run_module())
        plan = plan_source(ctx, args)
        result = await send(ctx, plan)
        return secret_diff(result) if plan.has_secrets else result
    except ActionFailed as failure:
        return _content_censored(ctx, failure.result)


def _content_censored(ctx: ActionContext, result: dict[str, Any]) -> dict[str, Any]:
    """As ansible-core's copy action: ``content`` is a no_log argument of the module, so the ``invocation`` a
    result gets (when the task asks for one) shows it masked, and its value stays in the rest of the result (the
    diff)."""
    if ctx.args.get("content") is not None and "invocation" not in result:
        result["invocation"] = {"module_args": {**ctx.args, "content": NO_LOG_ARGUMENT}}
    return result
