"""Provider plumbing that needs no server: retries with backoff, reading the server module's arguments,
provider settings, and the aws_ec2 source's grouping rules."""

from __future__ import annotations

import pytest

from modules._utils import validate_arguments
from modules.server import ARGUMENT_SPEC
from runner.actions.server_provider import server_from_arguments
from runner.errors import UserError
from runner.infra.provider_settings import UpcloudProviderSettings
from runner.models.validation import validate
from runner.providers import ProviderError, make_provider, provider_settings
from runner.providers.aws_inventory import KeyedGroup, host_variables, keyed_group_names
from runner.providers.base import TransientError
from runner.providers.retry import with_retries


class Flaky:
    """Fails with TransientError ``failures`` times, then answers."""

    def __init__(self, failures: int, retry_after: float | None = None):
        self.failures = failures
        self.retry_after = retry_after
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise TransientError(f"HTTP 503 (call {self.calls})", self.retry_after)
        return "answer"


def test_a_transient_failure_is_tried_again_with_doubling_delays() -> None:
    slept: list[float] = []
    settings = UpcloudProviderSettings(tries=3, retry_delay=0.5)
    flaky = Flaky(2)
    assert with_retries(flaky, settings, "GET /server", sleep=slept.append) == "answer"
    assert (flaky.calls, slept) == (3, [0.5, 1.0])


def test_retry_after_is_honoured_and_the_last_failure_is_reported() -> None:
    slept: list[float] = []
    flaky = Flaky(5, retry_after=7)
    with pytest.raises(ProviderError) as caught:
        with_retries(flaky, UpcloudProviderSettings(tries=3), "GET /server", sleep=slept.append)
    assert caught.value.message == "GET /server failed after 3 tries: HTTP 503 (call 3)"
    assert (flaky.calls, slept) == (3, [7, 7])


def test_other_errors_are_not_tried_again() -> None:
    calls = []

    def refused() -> None:
        calls.append(1)
        raise ProviderError("HTTP 400")

    with pytest.raises(ProviderError):
        with_retries(refused, UpcloudProviderSettings(), "POST /server", sleep=lambda _: None)
    assert len(calls) == 1


# --- the server module's arguments ---------------------------------------------------------------------------

def arguments(**given: object) -> dict:
    return validate_arguments(ARGUMENT_SPEC, given)


def test_arguments_are_read_by_the_providers_model() -> None:
    spec = server_from_arguments(arguments(name="api1", provider="aws", image="ami-1", plan="t3.large",
                                           groups=["web"], tags={"team": "x"}))
    assert (spec.hostname, spec.instance_type, spec.labels, spec.tags) == ("api1", "t3.large", ["web"], {"team": "x"})
    local = server_from_arguments(arguments(name="t1", provider="local"))
    assert (local.user, local.address) == ("root", None)


@pytest.mark.parametrize(("given", "message"), [
    ({"provider": "local", "plan": "big"}, "'plan' is not a valid local server keyword"),
    ({"provider": "aws"}, "an aws server needs 'image'"),
    ({"provider": "upcloud", "zone": "de-fra1"}, "an upcloud server needs 'image', 'ssh_key'"),
    ({"provider": "local", "address": "10.0.0.1"}, "expected an address from 127.0.0.2 to 127.0.0.254"),
])
def test_arguments_a_provider_cannot_use_are_errors(given: dict, message: str) -> None:
    with pytest.raises(UserError) as caught:
        server_from_arguments(arguments(name="s1", **given))
    assert message in caught.value.render(with_excerpt=False)


def test_deleting_needs_no_creation_settings() -> None:
    assert server_from_arguments(arguments(name="api1", provider="aws", state="absent")).hostname == "api1"


def test_the_provider_config_argument_is_never_shown() -> None:
    assert ARGUMENT_SPEC["provider_config"]["no_log"] is True


# --- provider settings ---------------------------------------------------------------------------------------

def test_provider_settings_are_validated_and_unknown_providers_named() -> None:
    assert provider_settings("aws", {"region": "eu-west-1"}).region == "eu-west-1"
    with pytest.raises(UserError) as caught:
        provider_settings("aws", {"regoin": "eu-west-1"})
    assert caught.value.hint == "did you mean 'region'?"
    with pytest.raises(ProviderError) as unknown:
        make_provider("gcp")
    assert unknown.value.hint is None and "expected one of local, aws, upcloud" in unknown.value.message


def test_upcloud_without_credentials_says_where_to_put_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UPCLOUD_USERNAME", raising=False)
    monkeypatch.delenv("UPCLOUD_PASSWORD", raising=False)
    with pytest.raises(ProviderError, match="set UPCLOUD_USERNAME and UPCLOUD_PASSWORD"):
        make_provider("upcloud")


def test_a_provider_redacts_its_secrets() -> None:
    provider = make_provider("upcloud", {"username": "u", "password": "hunter22"})
    assert provider.redact("auth u:hunter22 failed") == "auth u:******** failed"


# --- aws_ec2 groups --------------------------------------------------------------------------------------------

INSTANCE = {"InstanceId": "i-1", "InstanceType": "t3.micro", "PrivateIpAddress": "10.0.0.5",
            "Placement": {"AvailabilityZone": "eu-west-1a"}, "SecurityGroups": [{"GroupName": "ssh"}],
            "Tags": [{"Key": "Name", "Value": "web1"}, {"Key": "role", "Value": "web-front"}]}


def test_instances_become_snake_case_host_variables_with_tags_as_a_mapping() -> None:
    variables = host_variables(INSTANCE, "eu-west-1")
    assert variables["instance_id"] == "i-1"
    assert variables["placement"] == {"availability_zone": "eu-west-1a", "region": "eu-west-1"}
    assert variables["tags"] == {"Name": "web1", "role": "web-front"}
    assert variables["ansible_host"] == "10.0.0.5"


@pytest.mark.parametrize(("keyed", "groups"), [
    ({"key": "tags.role", "prefix": "role"}, ["role_web_front"]),
    ({"key": "tags.role"}, ["_web_front"]),  # Ansible's leading separator without a prefix
    ({"key": "tags.role", "leading_separator": False}, ["web_front"]),
    ({"key": "instance_type", "prefix": "type", "separator": "-"}, ["type_t3_micro"]),
    ({"key": "tags", "prefix": "tag"}, ["tag_Name_web1", "tag_role_web_front"]),
    ({"key": "tags.missing", "prefix": "x"}, []),
    ({"key": "tags.missing", "prefix": "x", "default_value": "none"}, ["x_none"]),
])
def test_keyed_groups_as_ansible_names_them(keyed: dict, groups: list[str]) -> None:
    assert keyed_group_names(validate(KeyedGroup, keyed), host_variables(INSTANCE, "eu-west-1")) == groups
