"""An infra file's ``defaults:`` section: settings every server shares, and each provider's servers under its name.

Beside the servers' settings it extends, so that merging them into a server (``runner.infra.merge``) needs only
these, not the whole infra file's model.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from runner.infra.servers import PROVIDERS, SETTINGS, AwsSettings, LocalSettings, ServerSettings, UpcloudSettings


class Defaults(ServerSettings):
    """``defaults:``: settings for every server of the infra, and under ``local``/``aws``/``upcloud`` for the
    servers of that provider. A server's own settings win over both; see ``runner.infra.merge``."""

    KIND = "defaults"

    local: LocalSettings | None = Field(default=None, description="Defaults for local servers")
    aws: AwsSettings | None = Field(default=None, description="Defaults for aws servers")
    upcloud: UpcloudSettings | None = Field(default=None, description="Defaults for upcloud servers")

    @classmethod
    def unknown_message(cls, key: Any) -> str:
        owners = [provider for provider in PROVIDERS if key in SETTINGS[provider].known_words()]
        if owners:
            return (f"'{key}' is a setting of {' and '.join(owners)} servers: write it under "
                    + " or ".join(f"defaults.{provider}" for provider in owners))
        return super().unknown_message(key)

    def for_provider(self, provider: str) -> ServerSettings | None:
        return getattr(self, provider)
