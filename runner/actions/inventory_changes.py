"""``add_host`` and ``group_by``: hosts and groups that join the run's inventory."""

from __future__ import annotations

from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.actions.run_state import AddedHost, JoinedGroup
from runner.errors import ParseError
from runner.inventory.hostnames import split_port


async def run_add_host(ctx: ActionContext) -> dict[str, Any]:
    args = dict(ctx.args)
    name = args.pop("name", None) or args.pop("hostname", None) or args.pop("host", None)
    if not name:
        return {"failed": True, "msg": "add_host needs a name"}
    try:
        name, port = split_port(str(name))
    except ParseError:  # not host:port; Ansible uses such a name as it is
        port = None
    if port:
        args["ansible_ssh_port"] = port
    groups = args.pop("groups", None) or args.pop("group", None) or args.pop("groupname", None) or []
    if isinstance(groups, str):
        groups = [g.strip() for g in groups.split(",") if g.strip()]
    # changed when the inventory gains the host, a group membership or a new value of a host variable
    changed = ctx.state.add_host(AddedHost(str(name), tuple(groups), args))
    return {"changed": changed, "add_host": {"host_name": str(name), "groups": list(groups), "host_vars": args}}


async def run_group_by(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    group = str(params["key"]).replace(" ", "-")  # as Ansible names it: spaces become dashes
    parents = params.get("parents") or ["all"]
    changed = ctx.state.join_group(JoinedGroup(group, ctx.host, tuple(parents)))
    return {"changed": changed, "add_group": group, "parent_groups": parents}
