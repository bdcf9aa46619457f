"""Providers: where servers come from. ``local`` (test hosts on this machine), ``aws`` (EC2) and ``upcloud``.

```python
provider = make_provider("aws", {"region": "eu-west-1"})
outcome = ensure_present(provider, server, check=True)      # "would create aws server 'web1'"
```

Each provider is one file behind ``runner.providers.base.Provider``; boto3 and requests are imported only when
their provider is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from runner.errors import did_you_mean
from runner.infra.provider_settings import PROVIDER_SETTINGS, ProviderSettings
from runner.models.validation import validate
from runner.providers.base import CredentialsError, Provider, ProviderError, QuotaError, ServerState
from runner.providers.lifecycle import Outcome, ensure_absent, ensure_present

if TYPE_CHECKING:
    from runner.infra.models import Infra
    from runner.infra.servers import AnyServer

__all__ = ["CredentialsError", "Outcome", "Provider", "ProviderError", "QuotaError", "ServerState",
           "ensure_absent", "ensure_present", "make_provider", "provider_for", "provider_settings"]


def provider_settings(provider: str, settings: ProviderSettings | Mapping[str, Any] | None) -> ProviderSettings:
    """``settings`` read into the provider's settings model (a mapping is validated: unknown keys are errors)."""
    if provider not in PROVIDER_SETTINGS:
        raise ProviderError(f"unknown provider '{provider}': expected one of {', '.join(PROVIDER_SETTINGS)}",
                            hint=did_you_mean(provider, list(PROVIDER_SETTINGS)))
    model = PROVIDER_SETTINGS[provider]
    if isinstance(settings, model):
        return settings
    return validate(model, dict(settings or {}))


def make_provider(provider: str, settings: ProviderSettings | Mapping[str, Any] | None = None, *,
                  env_name: str | None = None, region: str | None = None) -> Provider:
    """The provider called ``provider``. ``env_name`` names the group of local servers (the infra's name);
    ``region`` is an aws server's own region."""
    read = provider_settings(provider, settings)
    if provider == "local":
        from runner.providers.local import DEFAULT_ENV, LocalProvider

        return LocalProvider(read, env_name or DEFAULT_ENV)  # type: ignore[arg-type]
    if provider == "aws":
        from runner.providers.aws import AwsProvider

        return AwsProvider(read, region)  # type: ignore[arg-type]
    from runner.providers.upcloud import UpcloudProvider

    return UpcloudProvider(read)  # type: ignore[arg-type]


def provider_for(infra: Infra, server: AnyServer) -> Provider:
    """The provider of one server of an infra, with the infra's settings for it."""
    return make_provider(server.provider, infra.providers.of(server.provider), env_name=infra.name,
                         region=getattr(server, "region", None))
