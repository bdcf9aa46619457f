"""How to reach each provider: its API endpoint, where credentials come from, retries and waiting.

These are the ``providers:`` section of an infra file and the ``provider_config`` argument of the ``server``
module; they say nothing about any one server. Credentials are best left to the environment (the AWS chain,
``UPCLOUD_USERNAME``/``UPCLOUD_PASSWORD``); they are never shown in any output.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BeforeValidator, Field, WithJsonSchema

from runner.infra.types import PositiveInt
from runner.models.base import Model
from runner.models.types import Bool, Text, expected

DEFAULT_LOCAL_STATE_DIR = "/var/lib/provisioning/local"
DEFAULT_IMAGES_DIR = "/var/lib/provisioning/images"
DEFAULT_UPCLOUD_API = "https://api.upcloud.com"


def _seconds(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise expected("a number of seconds", value)
    return float(value)


def _last_octet(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= 254:
        raise expected("a number from 2 to 254 (the N of 127.0.0.N)", value)
    return value


Seconds = Annotated[float, BeforeValidator(_seconds), WithJsonSchema({"type": "number", "minimum": 0})]
LastOctet = Annotated[int, BeforeValidator(_last_octet),
                      WithJsonSchema({"type": "integer", "minimum": 2, "maximum": 254})]


class ProviderSettings(Model):
    """What every provider has: retries with backoff for transient errors, and how long and how to wait."""

    KIND = "provider settings"
    SECRETS: ClassVar[tuple[str, ...]] = ()  # fields never shown in any output

    tries: PositiveInt = Field(default=3, description="Tries of a call that fails for a transient reason")
    retry_delay: Seconds = Field(default=1.0, description="Seconds before the first retry; doubled for each next")
    wait_timeout: PositiveInt = Field(default=600, description="Seconds to wait for a new server to run and answer")
    wait_for_ssh: Bool = Field(default=True, description="Wait until a new server's SSH port answers")
    poll_interval: Seconds = Field(default=2.0, description="Seconds between state polls while waiting")
    lookup_addresses: Bool = Field(
        default=True, description="Ask the provider for the servers' addresses when the infra is an inventory")
    # The default suits local servers (starting one is mostly waiting for its sshd; more at once only queue for
    # this machine's CPUs); the cloud providers set their own after their APIs' limits.
    parallel: PositiveInt = Field(
        default=4, description="Servers created or deleted at once (no more than the run's forks)")
    images_dir: Text = Field(default=DEFAULT_IMAGES_DIR,
                             description="Where the records of golden images (image: golden:NAME) are kept")


class LocalProviderSettings(ProviderSettings):
    """Local servers are test hosts kept under a state directory, one env per infra. Needs root."""

    KIND = "local provider settings"

    state_dir: Text = Field(default=DEFAULT_LOCAL_STATE_DIR, description="Where local servers keep their state")
    env: Text | None = Field(default=None, description="The group of local servers (default: the infra's name)")
    base_address: LastOctet = Field(
        default=100, description="New servers get the first free 127.0.0.N from this N up")


class AwsProviderSettings(ProviderSettings):
    """EC2 through boto3; credentials from the usual AWS chain (environment, profile, instance role)."""

    KIND = "aws provider settings"

    region: Text | None = Field(default=None, description="The default region of this infra's servers")
    profile: Text | None = Field(default=None, description="The AWS profile to use")
    endpoint_url: Text | None = Field(default=None, description="Another EC2 endpoint (a test server)")
    # EC2 throttles RunInstances by request rate, not by count: ten at once stays clear of its token bucket.
    parallel: PositiveInt = Field(
        default=10, description="Servers created or deleted at once (no more than the run's forks)")


class UpcloudProviderSettings(ProviderSettings):
    """UpCloud's REST API 1.3 with HTTP basic auth."""

    KIND = "upcloud provider settings"
    SECRETS: ClassVar[tuple[str, ...]] = ("password",)

    api_url: Text = Field(default=DEFAULT_UPCLOUD_API, description="The API's base URL")
    username: Text | None = Field(default=None, description="API user; else UPCLOUD_USERNAME")
    password: Text | None = Field(default=None, description="API password; else UPCLOUD_PASSWORD (preferred)")
    request_timeout: Seconds = Field(default=30.0, description="Seconds to wait for one API response")
    # UpCloud's API allows few concurrent requests per account; creation polls while each server starts.
    parallel: PositiveInt = Field(
        default=5, description="Servers created or deleted at once (no more than the run's forks)")


PROVIDER_SETTINGS: dict[str, type[ProviderSettings]] = {
    "local": LocalProviderSettings, "aws": AwsProviderSettings, "upcloud": UpcloudProviderSettings}


class ProviderSettingsByName(Model):
    """The ``providers:`` section: settings per provider, each optional."""

    KIND = "providers"

    local: LocalProviderSettings = Field(default_factory=LocalProviderSettings)
    aws: AwsProviderSettings = Field(default_factory=AwsProviderSettings)
    upcloud: UpcloudProviderSettings = Field(default_factory=UpcloudProviderSettings)

    def of(self, provider: str) -> ProviderSettings:
        return getattr(self, provider)
