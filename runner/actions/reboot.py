"""``reboot``: read the host's boot time, run its reboot command, then wait on fresh connections until the boot time
reads differently and a test command succeeds, as Ansible's reboot action does.

Commands run on plain exec channels (no agent: the reboot ends every process on the host), with the task's
become. The system's shutdown command is found with the ``find`` module in ``search_paths`` (PATH is not used,
as in Ansible), and chosen with setup's ``min`` facts (``runner.actions.reboot_commands``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from runner.actions.arguments import ActionFailed, action_arguments
from runner.actions.context import ActionContext
from runner.actions.fresh_connection import fresh_session
from runner.actions.reboot_commands import (
    Distribution,
    boot_time_command,
    readiness_command,
    shutdown_parts,
)
from runner.connection.become import BecomeFailure
from runner.errors import ConnectionFailure

if TYPE_CHECKING:
    from runner.connection import HostSession

MAX_BACKOFF = 12  # seconds between two attempts at most, as Ansible's
WAITING_ERRORS = (ConnectionFailure, BecomeFailure, OSError, TimeoutError)


class _NotYet(Exception):
    """An attempt that did not succeed; its text says why (kept for the timeout's message)."""


async def _distribution(ctx: ActionContext) -> Distribution:
    facts = await ctx.session.run_module("setup", {"gather_subset": ["min"]}, become=ctx.become)
    if facts.get("failed"):
        raise ActionFailed(f"Failed to determine system distribution. {facts.get('msg', '')}".strip())
    try:
        return Distribution.from_facts(facts.get("ansible_facts") or {})
    except KeyError as missing:
        raise ActionFailed(f'Failed to get distribution information. Missing "{missing.args[0]}" in output.') \
            from None


async def _shutdown_command(ctx: ActionContext, distribution: Distribution, args: dict[str, Any]) -> str:
    command, arguments = shutdown_parts(distribution, args)
    if not command.startswith("/"):
        found = await ctx.session.run_module("find", {"paths": args["search_paths"], "patterns": [command],
                                                      "file_type": "any"}, become=ctx.become)
        paths = [entry["path"] for entry in found.get("files") or ()]
        if not paths:
            raise ActionFailed(f'Unable to find command "{command}" in search paths: {args["search_paths"]}')
        command = paths[0]
    return f"{command} {arguments}"


async def _boot_time(session: HostSession, ctx: ActionContext, command: str) -> str:
    completed = await session.raw(command, become=ctx.become)
    stdout, stderr = completed.stdout.decode(errors="replace"), completed.stderr.decode(errors="replace")
    if completed.rc != 0:
        raise _NotYet(f"reboot: failed to get host boot time info, rc: {completed.rc}, stdout: {stdout}, "
                      f"stderr: {stderr}")
    return stdout.strip()


async def _until(attempt: Callable[[], Awaitable[None]], timeout: int, what: str) -> None:
    """Run ``attempt`` until it returns (exponential backoff, at most MAX_BACKOFF seconds plus up to one more,
    between tries); ``_NotYet`` with Ansible's message when ``timeout`` seconds pass first."""
    import asyncio  # see fresh_session

    deadline = time.monotonic() + timeout
    failures = 0
    while time.monotonic() < deadline:
        try:
            await attempt()
            return
        except (_NotYet, *WAITING_ERRORS):
            pause = min(2 ** failures, MAX_BACKOFF) + random.random()
            failures += 1
            await asyncio.sleep(max(0.0, min(pause, deadline - time.monotonic())))
    raise _NotYet(f"Timed out waiting for {what} (timeout={timeout})")


async def run_reboot(ctx: ActionContext) -> dict[str, Any]:
    try:
        args = action_arguments(ctx)
        if ctx.session.settings.connection == "local":
            return {"changed": False, "elapsed": 0, "rebooted": False, "failed": True,
                    "msg": "Running reboot with local connection would reboot the control node."}
        if ctx.check:
            return {"changed": True, "elapsed": 0, "rebooted": True}
        distribution = await _distribution(ctx)
        boot_command = boot_time_command(distribution, args)
        try:
            before = await _boot_time(ctx.session, ctx, boot_command)
        except _NotYet as error:
            return {"failed": True, "changed": False, "rebooted": False, "msg": str(error)}
        command = await _shutdown_command(ctx, distribution, args)
        return await _reboot_and_wait(ctx, args, distribution, command, boot_command, before)
    except ActionFailed as failure:
        return failure.result


async def _reboot_and_wait(ctx: ActionContext, args: dict[str, Any], distribution: Distribution, command: str,
                           boot_command: str, before: str) -> dict[str, Any]:
    import asyncio  # see fresh_session

    try:
        completed = await ctx.session.raw(command, become=ctx.become)
    except ConnectionFailure:
        completed = None  # the host went down before the command could report: the reboot is under way
    started = time.monotonic()
    if completed is not None and completed.rc != 0:
        return {"failed": True, "changed": False, "rebooted": False, "elapsed": 0,
                "msg": f"Reboot command failed. Error was: '{completed.stdout.decode(errors='replace').strip()}, "
                       f"{completed.stderr.decode(errors='replace').strip()}'"}
    await ctx.session.close()  # its connection dies with the host; the next task opens a new one
    if args["post_reboot_delay"] > 0:
        await asyncio.sleep(args["post_reboot_delay"])
    connect_timeout = args["connect_timeout"]

    async def booted_again() -> None:
        async with fresh_session(ctx, connect_timeout) as probe:
            now = await _boot_time(probe, ctx, boot_command)
        if not now or now == before:
            raise _NotYet("boot time has not changed")

    async def answers() -> None:
        async with fresh_session(ctx, connect_timeout) as probe:
            completed = await probe.raw(readiness_command(distribution, args), become=ctx.become)
        if completed.rc != 0:
            raise _NotYet(f"Test command failed: {completed.stderr.decode(errors='replace')} "
                          f"{completed.stdout.decode(errors='replace')}")

    try:
        await _until(booted_again, args["reboot_timeout"], "last boot time check")
        await _until(answers, args["reboot_timeout"], "post-reboot test command")
    except _NotYet as timed_out:
        return {"failed": True, "changed": False, "rebooted": True, "elapsed": int(time.monotonic() - started),
                "msg": str(timed_out)}
    return {"changed": True, "rebooted": True, "elapsed": int(time.monotonic() - started)}
