"""``meta``: a request to the controller about the play (end_host, end_play, clear_facts, flush_handlers ...).

The result's ``msg`` (and a skipped one's ``skip_reason``) are ansible-core's words for what the request does,
which ``-vv`` prints as its ``META:`` line."""

from __future__ import annotations

from typing import Any

from runner.actions.context import ActionContext

# What each request did, in ansible-core's words ("{host}" is the host's name)
_DONE = {
    "noop": "noop",
    "flush_handlers": "triggered running handlers for {host}",
    "refresh_inventory": "inventory successfully refreshed",
    "clear_facts": "facts cleared",
    "clear_host_errors": "cleared host errors",
    "end_batch": "ending batch",
    "end_play": "ending play",
    "end_host": "ending play for {host}",
    "reset_connection": "reset connection",
}
# What a request whose condition is false leaves undone, appended to "<action> conditional evaluated to False"
_NOT_DONE = {
    "flush_handlers": ", not running handlers for {host}",
    "clear_facts": ", not clearing facts and fact cache for {host}",
    "clear_host_errors": ", not clearing host error state for {host}",
    "end_batch": ", continuing current batch",
    "end_play": ", continuing play",
    "end_host": ", continuing execution for {host}",
}


def meta_action(args: dict[str, Any]) -> str:
    return str(args.get("_raw_params") or args.get("free_form") or "")


async def run_meta(ctx: ActionContext) -> dict[str, Any]:
    action = meta_action(ctx.args)
    ctx.state.request_meta(action)
    return {"changed": False, "msg": _DONE.get(action, action).format(host=ctx.host)}


def meta_skipped(args: dict[str, Any], host: str) -> dict[str, Any]:
    """The result of a meta task whose condition is false, as ansible-core words it."""
    action = meta_action(args)
    reason = f"{action} conditional evaluated to False" + _NOT_DONE.get(action, "").format(host=host)
    # ansible-core keeps an older lower-case message for end_host beside the reason
    message = f"end_host conditional evaluated to false, continuing execution for {host}" \
        if action == "end_host" else action
    return {"skipped": True, "msg": message, "skip_reason": reason}
