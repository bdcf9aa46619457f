"""``template`` on the controller: render ``src`` with the task's variables, then let the copy module write it.

The rendered text travels inside the copy module's call as one inline file (copy's own protocol, see
``modules/copy.py``), so validate, backup, force, mode/owner/group, check mode and diff are copy's, unchanged.
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import pwd
import socket
from collections import ChainMap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from modules.copy import DIRECTORIES, FILES, LINKS, TREE
from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.actions.secret_sources import is_encrypted_source, secret_diff
from runner.errors import UserError
from runner.templating import ANSIBLE_MANAGED, Templar

# Arguments the copy module takes as they are.
COPY_ARGUMENTS = ("dest", "backup", "force", "follow", "validate", "mode", "owner", "group")
JINJA_OPTIONS = ("trim_blocks", "lstrip_blocks", "newline_sequence", "block_start_string", "block_end_string",
                 "variable_start_string", "variable_end_string", "comment_start_string", "comment_end_string")
# A YAML file that says newline_sequence: '\r\n' (single quotes) means the line ending, as Ansible reads it.
ESCAPED_NEWLINES = {"\\n": "\n", "\\r": "\r", "\\r\\n": "\r\n"}


def template_variables(src: Path, dest: str) -> dict[str, Any]:
    """The variables Ansible's template action adds for the file being rendered."""
    info = src.stat()
    try:
        owner = pwd.getpwuid(info.st_uid).pw_name
    except KeyError:
        owner = str(info.st_uid)
    return {"template_host": socket.gethostname(), "template_path": str(src),
            "template_fullpath": str(src.resolve()), "template_destpath": dest, "template_uid": owner,
            "template_mtime": datetime.datetime.fromtimestamp(info.st_mtime),
            "template_run_date": datetime.datetime.now()}


def render(ctx: ActionContext, src: Path, args: dict[str, Any]) -> str:
    variables: Mapping[str, Any] = ChainMap(template_variables(src, args["dest"]), ctx.task_vars,  # type: ignore[arg-type]
                                            {"ansible_managed": ANSIBLE_MANAGED})
    options = {name: args[name] for name in JINJA_OPTIONS if args.get(name) is not None}
    try:
        return Templar(variables, search_paths=ctx.search_paths).template_file(src, **options)
    except UserError as exc:
        raise ActionFailed(f"{src}: {exc.message}") from None


def encoded(text: str, encoding: str) -> bytes:
    """The rendered text in ``output_encoding``. Bytes a filter decoded as lone surrogates (``b64decode`` of text
    that is not UTF-8) are written back as those bytes, as Ansible's ``surrogate_or_strict`` writes them."""
    try:
        return text.encode(encoding, "surrogateescape")
    except LookupError:
        raise ActionFailed(f"unknown output_encoding: {encoding}") from None
    except UnicodeEncodeError as exc:
        raise ActionFailed(f"the rendered template cannot be written as {encoding}: {exc.reason} "
                           f"({exc.object[exc.start:exc.end]!r} at character {exc.start})") from None


def rendered_file(src: Path, data: bytes) -> dict[str, Any]:
    """The rendered content as one file entry of the copy module's protocol."""
    entry: dict[str, Any] = {"path": src.name, "checksum": hashlib.sha1(data).hexdigest(), "size": len(data),
                             "mode": src.stat().st_mode & 0o7777}
    try:
        entry["content"] = data.decode("utf-8")
    except UnicodeDecodeError:
        entry["content_b64"] = base64.b64encode(data).decode("ascii")
    return entry


async def run_template(ctx: ActionContext) -> dict[str, Any]:
    sequence = ctx.args.get("newline_sequence")
    if isinstance(sequence, str) and sequence in ESCAPED_NEWLINES:
        ctx.args = {**ctx.args, "newline_sequence": ESCAPED_NEWLINES[sequence]}
    try:
        args = action_arguments(ctx)
        try:
            src = ctx.find_file(args["src"], "templates")
        except UserError as exc:
            raise ActionFailed(exc.message) from None
        if src.is_dir():
            raise ActionFailed(f"template src {src} is a directory: it must be a file")
        data = encoded(render(ctx, src, args), args["output_encoding"])
    except ActionFailed as failure:
        return failure.result
    copy_args = {name: args[name] for name in COPY_ARGUMENTS if args.get(name) is not None}
    copy_args.update({"src": str(src), FILES: [rendered_file(src, data)], TREE: False, DIRECTORIES: [], LINKS: []})
    result = await ctx.run_module("copy", copy_args)
    return secret_diff(result) if is_encrypted_source(src) else result
