"""The upcloud provider against a local server that follows UpCloud's API 1.3 (tests/support/upcloud_api.py):
requests as documented, idempotence by hostname, deletion with or without storage, retries on 429 and 5xx,
clear errors on 4xx, and no password in any output."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from runner.infra import UpcloudServer
from runner.models.validation import validate
from runner.providers import CredentialsError, ProviderError, QuotaError, ensure_absent, ensure_present, make_provider
from runner.providers.upcloud import UpcloudProvider
from tests.support.playbook_run import run_playbook
from tests.support.upcloud_api import TEMPLATES, UpcloudApi

DEBIAN = TEMPLATES[0]


@pytest.fixture
def api() -> Iterator[UpcloudApi]:
    with UpcloudApi(polls_to_start=2) as running:
        yield running


def settings(api: UpcloudApi, **overrides: object) -> dict:
    return {"api_url": api.url, "username": api.username, "password": api.password, "retry_delay": 0,
            "poll_interval": 0, "wait_for_ssh": False, **overrides}


@pytest.fixture
def provider(api: UpcloudApi) -> UpcloudProvider:
    return make_provider("upcloud", settings(api))  # type: ignore[return-value]


@pytest.fixture(scope="module")
def ssh_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    key = tmp_path_factory.mktemp("keys") / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "upcloud-test", "-f", str(key)], check=True)
    return key


@pytest.fixture
def server(ssh_key: Path) -> UpcloudServer:
    return validate(UpcloudServer, {"hostname": "db1", "provider": "upcloud", "zone": "de-fra1",
                                    "plan": "2xCPU-4GB", "image": DEBIAN["title"], "disk_gb": 40,
                                    "ssh_key": str(ssh_key), "user": "deploy"})


def posts(api: UpcloudApi) -> list:
    return [request for request in api.requests if request.method == "POST" and request.path == "/1.3/server"]


def test_check_mode_sends_no_change(api: UpcloudApi, provider: UpcloudProvider, server: UpcloudServer) -> None:
    outcome = ensure_present(provider, server, check=True)
    assert (outcome.changed, outcome.msg) == (True, "would create upcloud server 'db1'")
    assert {request.method for request in api.requests} == {"GET"}
    assert api.servers == {}


def test_create_sends_the_documented_request_and_waits_until_started(api: UpcloudApi, provider: UpcloudProvider,
                                                                      server: UpcloudServer, ssh_key: Path) -> None:
    outcome = ensure_present(provider, server)
    assert (outcome.changed, outcome.msg) == (True, "created upcloud server 'db1'")
    (post,) = posts(api)
    body = post.body["server"]
    assert (body["hostname"], body["title"], body["zone"], body["plan"]) == ("db1", "db1", "de-fra1", "2xCPU-4GB")
    assert body["storage_devices"] == {"storage_device": [
        {"action": "clone", "storage": DEBIAN["uuid"], "title": "db1 system disk", "size": 40, "tier": "maxiops"}]}
    assert body["login_user"] == {"username": "deploy", "create_password": "no",
                                  "ssh_keys": {"ssh_key": [Path(f"{ssh_key}.pub").read_text().strip()]}}
    assert [interface["type"] for interface in body["networking"]["interfaces"]["interface"]] == ["public",
                                                                                                 "utility"]
    assert body["password_delivery"] == "none"
    state = outcome.state
    assert state is not None and state.state == "started"
    assert (state.public_address, state.private_address) == ("94.237.0.10", "10.1.0.10")
    assert provider.login_vars(server, state) == {"ansible_host": "94.237.0.10", "ansible_user": "deploy",
                                                  "ansible_ssh_private_key_file": str(ssh_key)}


def test_list_and_idempotent_create(api: UpcloudApi, provider: UpcloudProvider, server: UpcloudServer) -> None:
    ensure_present(provider, server)
    other = server.model_copy(update={"hostname": "db2"})
    ensure_present(provider, other)
    assert sorted(state.name for state in provider.servers()) == ["db1", "db2"]
    again = ensure_present(provider, server)
    assert (again.changed, again.msg) == (False, "upcloud server 'db1' exists (started)")
    assert len(posts(api)) == 2


def test_delete_stops_then_deletes_with_storage_unless_kept(api: UpcloudApi, provider: UpcloudProvider,
                                                            server: UpcloudServer) -> None:
    ensure_present(provider, server)
    checked = ensure_absent(provider, "db1", check=True)
    assert (checked.changed, len(api.servers)) == (True, 1)
    outcome = ensure_absent(provider, "db1")
    assert (outcome.changed, outcome.msg) == (True, "deleted upcloud server 'db1'")
    changes = [(request.method, request.path.rsplit("/", 1)[-1], request.query) for request in api.requests
               if request.method != "GET"]
    assert changes[1:] == [("POST", "stop", {}), ("DELETE", changes[2][1], {"storages": ["1"]})]
    assert (api.servers, api.kept_storages) == ({}, [])
    assert ensure_absent(provider, "db1").changed is False
    ensure_present(provider, server)
    ensure_absent(provider, "db1", keep_storage=True)
    assert api.requests[-1].query == {} and len(api.kept_storages) == 1


def test_bad_credentials_are_a_clear_error_without_the_password(api: UpcloudApi) -> None:
    provider = make_provider("upcloud", settings(api, password="not-the-password"))
    with pytest.raises(CredentialsError) as caught:
        provider.servers()
    assert caught.value.message == ("UpCloud refused the credentials (UpCloud GET /server: HTTP 401 "
                                    "AUTHENTICATION_FAILED: Authentication failed using the given username and "
                                    "password.)")
    assert len(api.requests) == 1  # a 401 is not tried again


def test_credentials_from_the_environment(api: UpcloudApi, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UPCLOUD_USERNAME", api.username)
    monkeypatch.setenv("UPCLOUD_PASSWORD", api.password)
    provider = make_provider("upcloud", {"api_url": api.url})
    assert provider.servers() == []


def test_429_is_tried_again_after_retry_after(api: UpcloudApi, provider: UpcloudProvider) -> None:
    api.fail_next(429, "TOO_MANY_REQUESTS", "Slow down", times=2, Retry_After="0")
    assert provider.servers() == []
    assert len(api.requests) == 3


def test_5xx_is_tried_three_times_then_reported(api: UpcloudApi, provider: UpcloudProvider) -> None:
    api.fail_next(503, "SERVICE_UNAVAILABLE", "Maintenance", times=5)
    with pytest.raises(ProviderError) as caught:
        provider.servers()
    assert caught.value.message == ("UpCloud GET /server failed after 3 tries: HTTP 503 SERVICE_UNAVAILABLE: "
                                    "Maintenance")
    assert len(api.requests) == 3


@pytest.mark.parametrize(("status", "code", "error"), [
    (402, "INSUFFICIENT_CREDITS", QuotaError),
    (409, "SERVER_CREATING_LIMIT_REACHED", QuotaError),
    (400, "PLAN_INVALID", ProviderError),
])
def test_refusals_of_a_create_are_named(api: UpcloudApi, provider: UpcloudProvider, server: UpcloudServer,
                                         status: int, code: str, error: type[ProviderError]) -> None:
    api.fail_next(status, code, "refused", times=1)
    server = server.model_copy(update={"image": DEBIAN["uuid"]})  # a UUID needs no template lookup: POST is next
    with pytest.raises(error) as caught:
        provider.create(server)
    assert f"HTTP {status} {code}: refused" in caught.value.message
    assert type(caught.value) is error
    assert api.servers == {}


def test_an_unknown_template_title_names_the_templates(provider: UpcloudProvider, server: UpcloudServer) -> None:
    with pytest.raises(ProviderError, match="UpCloud has no template titled 'Debian 13'"):
        provider.create(server.model_copy(update={"image": "Debian 13"}))


def test_the_server_module_in_a_playbook_never_shows_the_password(api: UpcloudApi, ssh_key: Path,
                                                                  tmp_path: Path) -> None:
    playbook = tmp_path / "upcloud.yml"
    playbook.write_text(f"""\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: make it
      server:
        name: db1
        provider: upcloud
        zone: de-fra1
        image: "{DEBIAN['uuid']}"
        ssh_key: {ssh_key}
        labels: [db]
        provider_config: {{api_url: "{api.url}", username: {api.username}, password: {api.password},
                          wait_for_ssh: false, poll_interval: 0}}
    - name: where
      debug:
        msg: "{{{{ hostvars['db1'].ansible_host }}}} in {{{{ groups['db'] }}}}"
      when: not ansible_check_mode
    - name: wrong password
      server:
        name: db1
        provider: upcloud
        zone: de-fra1
        image: "{DEBIAN['uuid']}"
        ssh_key: {ssh_key}
        provider_config: {{api_url: "{api.url}", username: {api.username}, password: wr0ng-Pa55word}}
      ignore_errors: true
""")
    checked = run_playbook("localhost,", playbook, "--check", "-v")
    assert checked.task("make it")["localhost"]["msg"] == "would create upcloud server 'db1'"
    assert posts(api) == []
    run = run_playbook("localhost,", playbook, "-vvv")
    assert run.exit_code == 0, run.output
    assert run.task("make it")["localhost"]["msg"] == "created upcloud server 'db1'"
    assert run.msg("where")["localhost"] == "94.237.0.10 in ['db1']"
    failed = run.task("wrong password")["localhost"]
    assert failed["failed"] and "HTTP 401 AUTHENTICATION_FAILED" in failed["msg"]
    for output in (checked.output, run.output, str(run.report)):
        assert api.password not in output and "wr0ng-Pa55word" not in output
