"""The ``server`` action's work, through ``runner.providers`` (loaded only when a task creates or deletes a server).

It reads the task's arguments into the provider's server model (so a setting the provider lacks is an error,
as in an infra file), runs ``ensure_present``/``ensure_absent`` in a thread (provider calls block), and hands
a running server to the run's inventory the way ``add_host`` does.
"""

from __future__ import annotations

import asyncio
from typing import Any

from runner.actions.arguments import action_arguments
from runner.actions.context import ActionContext
from runner.actions.run_state import AddedHost
from runner.errors import UserError
from runner.infra.servers import SERVERS, AnyServer, missing_settings
from runner.models.validation import ParseErrors, validate
from runner.providers import ensure_absent, ensure_present, make_provider
from runner.providers.base import Provider, ProviderError
from runner.util.masking import mask_secrets

# Arguments that are server settings, read by the provider's model; the others steer the action.
SETTING_ARGUMENTS = ("labels", "user", "ssh_port", "ssh_key", "address", "image", "disk_gb", "plan", "instance_type",
                     "zone", "region", "key_name", "security_groups", "subnet", "network", "tags")


async def server(ctx: ActionContext) -> dict[str, Any]:
    params = action_arguments(ctx)
    provider: Provider | None = None
    try:
        spec = server_from_arguments(params)
        provider = make_provider(params["provider"], _provider_settings(params), env_name=params["infra"],
                                 region=params.get("region"))
        if params["state"] == "absent":
            outcome = await asyncio.to_thread(ensure_absent, provider, spec.hostname, check=ctx.check,
                                              keep_storage=params["keep_storage"])
        else:
            outcome = await asyncio.to_thread(ensure_present, provider, spec, check=ctx.check,
                                              wait=params["wait"])
    except UserError as error:
        secrets = provider.secrets() if provider is not None else []
        failed: dict[str, Any] = {"failed": True, "changed": False, "msg": _message(error)}
        if isinstance(error, ProviderError) and error.server_created:
            # It exists now: a rollback of the run deletes it.
            failed.update(changed=True, created=True, server={"name": params["name"], "provider": params["provider"]})
        return mask_secrets(failed, secrets)
    result = outcome.as_result()
    if params["state"] == "present" and outcome.state is not None and outcome.state.running:
        variables = {**provider.login_vars(spec, outcome.state), **(params.get("host_vars") or {})}
        ctx.state.add_host(AddedHost(spec.hostname, tuple(spec.labels), variables))
        result["add_host"] = {"host_name": spec.hostname, "groups": list(spec.labels), "host_vars": variables}
    return mask_secrets(result, provider.secrets())


def server_from_arguments(params: dict[str, Any]) -> AnyServer:
    """The server the arguments describe, read by its provider's model; a ``ParseError`` when they do not fit."""
    data = {"hostname": params["name"], "provider": params["provider"]}
    data.update((name, params[name]) for name in SETTING_ARGUMENTS if params.get(name) is not None)
    spec = validate(SERVERS[params["provider"]], data)
    missing = missing_settings(spec)
    if missing and params["state"] == "present":
        raise UserError(f"a{'n' if spec.provider[0] in 'aeiou' else ''} {spec.provider} server needs "
                        + ", ".join(f"'{name}'" for name in missing))
    return spec


def _provider_settings(params: dict[str, Any]) -> dict[str, Any]:
    settings = dict(params.get("provider_config") or {})
    for name in ("wait_timeout", "wait_for_ssh"):
        if params.get(name) is not None:
            settings[name] = params[name]
    return settings


def _message(error: UserError) -> str:
    errors = error.errors if isinstance(error, ParseErrors) else [error]
    return "; ".join(item.render(with_excerpt=False).removeprefix("ERROR: ") for item in errors)
