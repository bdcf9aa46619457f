"""Making a server exist (or not), the same way for every provider: idempotent by name, check mode first.

``ensure_present`` creates a missing server (or starts a stopped one), then waits until it runs and its SSH
answers; ``ensure_absent`` deletes it. In check mode both only say what they would do and touch nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from runner.infra.servers import AnyServer
from runner.providers.base import Provider, ProviderError, ServerState
from runner.providers.waiting import wait_for_ssh, wait_until_running


@dataclass(frozen=True)
class Outcome:
    """What ``ensure_present``/``ensure_absent`` did (or would do in check mode)."""

    changed: bool
    msg: str
    state: ServerState | None = None
    created: bool = False  # the server did not exist and was created: what ``provisioning-infra rollback`` undoes

    def as_result(self) -> dict[str, Any]:
        result: dict[str, Any] = {"changed": self.changed, "msg": self.msg}
        if self.created:
            result["created"] = True
        if self.state is not None:
            result["server"] = self.state.as_result()
        return result


def ensure_present(provider: Provider, server: AnyServer, *, check: bool = False, wait: bool = True,
                   wait_for_ssh_answer: bool | None = None) -> Outcome:
    """The server exists and runs; with ``wait``, it also answers SSH (unless the provider settings or
    ``wait_for_ssh_answer`` say not to wait for that)."""
    name = f"{provider.name} server '{server.hostname}'"
    state = provider.find(server.hostname)
    created = state is None and not check
    if state is None:
        if check:
            return Outcome(True, f"would create {name}")
        state, done = provider.create(server), f"created {name}"
    elif not state.running:
        if check:
            return Outcome(True, f"would start {name} (now {state.state})", state)
        state, done = provider.start(state), f"started {name}"
    else:
        done = ""
    if wait and not check:
        try:
            state = _wait(provider, server, state, name, wait_for_ssh_answer)
        except ProviderError as error:
            error.server_created = created
            raise
    return Outcome(bool(done), done or f"{name} exists ({state.state})", state, created=created)


def _wait(provider: Provider, server: AnyServer, state: ServerState, name: str, wait_for_ssh_answer: bool | None
          ) -> ServerState:
    settings = provider.settings
    if not state.running:
        state = wait_until_running(lambda: provider.find(server.hostname), server.hostname,
                                   settings.wait_timeout, settings.poll_interval)
    ssh = settings.wait_for_ssh if wait_for_ssh_answer is None else wait_for_ssh_answer
    if ssh:
        if not state.address:
            raise ProviderError(f"{name} runs but has no address to reach by SSH")
        wait_for_ssh(state.address, server.ssh_port, settings.wait_timeout, settings.poll_interval)
    return state


def ensure_absent(provider: Provider, hostname: str, *, check: bool = False, keep_storage: bool = False) -> Outcome:
    name = f"{provider.name} server '{hostname}'"
    state = provider.find(hostname)
    if state is None:
        return Outcome(False, f"{name} does not exist")
    if check:
        return Outcome(True, f"would delete {name}", state)
    provider.delete(state, keep_storage=keep_storage)
    kept = " (its storage kept)" if keep_storage else ""
    return Outcome(True, f"deleted {name}{kept}", state)
