"""The aws provider and the aws_ec2 inventory source against moto's EC2 server, started here on a loopback
port; boto3 reaches it by endpoint URL. moto's addresses answer no SSH, so these servers are not waited for
over SSH (that wait is tested against a local test host in test_provider_local.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from botocore.exceptions import ClientError

from runner.cli.project import load_sources
from runner.config import load_config
from runner.infra import AwsServer
from runner.models.validation import validate
from runner.providers import CredentialsError, ensure_absent, ensure_present, make_provider
from runner.providers.aws import SSH_GROUP, AwsProvider
from tests.support.playbook_run import run_playbook

REGION = "eu-west-1"
IMAGE = "ami-03cf127a"  # one of the images moto's EC2 has from the start

# The settings' defaults: no configuration file is found from the root directory.
DEFAULTS = load_config(env={}, cwd=Path("/"))


@pytest.fixture
def provider(moto_endpoint: str) -> AwsProvider:
    return make_provider("aws", {"endpoint_url": moto_endpoint, "region": REGION, "wait_for_ssh": False,
                                 "poll_interval": 0})  # type: ignore[return-value]


@pytest.fixture(scope="module")
def ssh_key(tmp_path_factory: pytest.TempPathFactory) -> Path:
    key = tmp_path_factory.mktemp("keys") / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "aws-test", "-f", str(key)], check=True)
    return key


def aws_server(name: str, **settings: object) -> AwsServer:
    return validate(AwsServer, {"hostname": name, "provider": "aws", "image": IMAGE, **settings})


def instances_named(provider: AwsProvider, name: str) -> list[dict]:
    found = provider.client.describe_instances(Filters=[{"Name": "tag:Name", "Values": [name]}])
    return [instance for reservation in found["Reservations"] for instance in reservation["Instances"]]


def test_check_mode_says_what_it_would_create_and_creates_nothing(provider: AwsProvider) -> None:
    outcome = ensure_present(provider, aws_server("checked"), check=True)
    assert (outcome.changed, outcome.msg, outcome.state) == (True, "would create aws server 'checked'", None)
    assert instances_named(provider, "checked") == []


def test_create_runs_a_tagged_instance_with_its_key_group_subnet_and_disk(provider: AwsProvider, ssh_key: Path
                                                                           ) -> None:
    server = aws_server("web1", zone=f"{REGION}b", instance_type="t3.small", disk_gb=20, ssh_key=str(ssh_key),
                        tags={"team": "platform"})
    outcome = ensure_present(provider, server)
    assert (outcome.changed, outcome.msg) == (True, "created aws server 'web1'")
    state = outcome.state
    assert state is not None and state.running and state.public_address and state.private_address
    (instance,) = instances_named(provider, "web1")
    assert instance["InstanceType"] == "t3.small"
    assert instance["Placement"]["AvailabilityZone"] == f"{REGION}b"
    assert {tag["Key"]: tag["Value"] for tag in instance["Tags"]} == {"Name": "web1", "team": "platform"}
    assert [group["GroupName"] for group in instance["SecurityGroups"]] == [SSH_GROUP]
    (group,) = provider.client.describe_security_groups(GroupNames=[SSH_GROUP])["SecurityGroups"]
    assert [(rule["FromPort"], rule["ToPort"]) for rule in group["IpPermissions"]] == [(22, 22)]
    key_pair = provider.client.describe_key_pairs(KeyNames=[instance["KeyName"]])["KeyPairs"][0]
    assert key_pair["KeyName"].startswith("provisioning-")
    volume_id = instance["BlockDeviceMappings"][0]["Ebs"]["VolumeId"]
    volume = provider.client.describe_volumes(VolumeIds=[volume_id])["Volumes"][0]
    assert (volume["Size"], volume["VolumeType"]) == (20, "gp3")
    assert provider.login_vars(server, state) == {"ansible_host": state.public_address,
                                                  "ansible_ssh_private_key_file": str(ssh_key)}


def test_creating_again_changes_nothing(provider: AwsProvider, ssh_key: Path) -> None:
    server = aws_server("again", ssh_key=str(ssh_key))
    first = ensure_present(provider, server)
    second = ensure_present(provider, server)
    assert (second.changed, second.msg) == (False, "aws server 'again' exists (running)")
    assert first.state is not None and second.state is not None and second.state.id == first.state.id
    assert len(instances_named(provider, "again")) == 1
    assert len(provider.client.describe_security_groups(GroupNames=[SSH_GROUP])["SecurityGroups"]) == 1


def test_a_stopped_instance_is_started_again(provider: AwsProvider) -> None:
    state = ensure_present(provider, aws_server("sleepy")).state
    assert state is not None
    provider.client.stop_instances(InstanceIds=[state.id])
    assert ensure_present(provider, aws_server("sleepy"), check=True).msg.startswith("would start aws server 'sleepy'")
    started = ensure_present(provider, aws_server("sleepy"))
    assert (started.changed, started.msg) == (True, "started aws server 'sleepy'")
    assert started.state is not None and started.state.running and started.state.id == state.id


def test_delete_terminates_and_takes_the_disk_unless_kept(provider: AwsProvider) -> None:
    for name, keep in (("gone", False), ("kept", True)):
        state = ensure_present(provider, aws_server(name, disk_gb=12)).state
        assert state is not None
        volume_id = instances_named(provider, name)[0]["BlockDeviceMappings"][0]["Ebs"]["VolumeId"]
        checked = ensure_absent(provider, name, check=True, keep_storage=keep)
        assert (checked.changed, checked.msg) == (True, f"would delete aws server '{name}'")
        assert instances_named(provider, name)[0]["State"]["Name"] == "running"
        outcome = ensure_absent(provider, name, keep_storage=keep)
        assert outcome.changed
        assert instances_named(provider, name)[0]["State"]["Name"] in ("shutting-down", "terminated")
        assert provider.find(name) is None
        assert ensure_absent(provider, name).changed is False
        if keep:
            assert provider.client.describe_volumes(VolumeIds=[volume_id])["Volumes"][0]["State"] == "available"
        else:
            with pytest.raises(ClientError):
                provider.client.describe_volumes(VolumeIds=[volume_id])


def test_the_aws_ec2_source_lists_instances_by_filter_as_hosts_in_keyed_groups(provider: AwsProvider,
                                                                                 tmp_path: Path) -> None:
    for name, role in (("inv-web", "web"), ("inv-db", "db")):
        ensure_present(provider, aws_server(name, tags={"env": "inventory-test", "role": role}))
    ensure_present(provider, aws_server("inv-other", tags={"env": "elsewhere"}))
    source = tmp_path / "demo.aws_ec2.yml"
    source.write_text(f"""\
plugin: amazon.aws.aws_ec2
endpoint_url: {provider.settings.endpoint_url}
regions: [{REGION}]
filters:
  tag:env: inventory-test
keyed_groups:
  - {{key: tags.role, prefix: role}}
  - {{key: placement.availability_zone, prefix: az}}
""")
    inventory = load_sources([source], DEFAULTS)
    groups = inventory.groups_dict()
    assert sorted(groups["aws_ec2"]) == ["inv-db", "inv-web"]
    assert (groups["role_web"], groups["role_db"]) == (["inv-web"], ["inv-db"])
    web = inventory.host_vars("inv-web")
    assert web["ansible_host"] == provider.find("inv-web").public_address  # type: ignore[union-attr]
    assert web["tags"]["role"] == "web" and web["instance_type"] == "t3.micro"
    assert groups[f"az_{web['placement']['availability_zone'].replace('-', '_')}"]


def test_an_unsupported_aws_ec2_option_is_reported_at_its_place(tmp_path: Path) -> None:
    source = tmp_path / "aws_ec2.yml"
    source.write_text("plugin: aws_ec2\ncompose:\n  ansible_host: private_ip_address\n")
    with pytest.raises(Exception) as caught:
        load_sources([source], load_config({"any_unparsed_is_failed": True}, env={}, cwd=Path("/")))
    assert str(caught.value) == (f"ERROR: {source}:2:1: 'compose' (host variables from Jinja2 expressions) is not "
                                 "supported in aws_ec2 sources")


def test_an_infra_inventory_gets_the_addresses_of_existing_aws_servers(provider: AwsProvider,
                                                                         tmp_path: Path) -> None:
    ensure_present(provider, aws_server("infra-api"))
    infra = tmp_path / "cloud.yml"
    infra.write_text(f"""\
providers:
  aws: {{endpoint_url: "{provider.settings.endpoint_url}", region: {REGION}}}
defaults:
  aws: {{image: {IMAGE}, user: admin}}
servers:
  - {{hostname: infra-api, provider: aws, labels: [api]}}
  - {{hostname: infra-later, provider: aws}}
""")
    inventory = load_sources([infra], DEFAULTS)
    api = inventory.host_vars("infra-api")
    assert api["ansible_host"] == provider.find("infra-api").public_address  # type: ignore[union-attr]
    assert api["ansible_user"] == "admin"
    assert "ansible_host" not in inventory.host_vars("infra-later")
    assert inventory.warnings == []


def test_the_server_module_creates_adds_the_host_and_is_idempotent(provider: AwsProvider, tmp_path: Path) -> None:
    playbook = tmp_path / "aws.yml"
    playbook.write_text(f"""\
- hosts: localhost
  gather_facts: false
  tasks:
    - name: make it
      server:
        name: module-web
        provider: aws
        region: {REGION}
        image: {IMAGE}
        labels: [web]
        user: admin
        provider_config: {{endpoint_url: "{provider.settings.endpoint_url}", wait_for_ssh: false}}
    - name: where
      debug:
        msg: "{{{{ hostvars['module-web'].ansible_host }}}} {{{{ groups['web'] }}}}"
      when: not ansible_check_mode  # a server that would be created has no host yet
""")
    checked = run_playbook("localhost,", playbook, "--check")
    assert checked.exit_code == 0, checked.output
    assert checked.task("make it")["localhost"]["msg"] == "would create aws server 'module-web'"
    assert instances_named(provider, "module-web") == []
    first = run_playbook("localhost,", playbook)
    assert first.exit_code == 0, first.output
    result = first.task("make it")["localhost"]
    assert (result["changed"], result["msg"]) == (True, "created aws server 'module-web'")
    address = result["server"]["public_address"]
    assert first.msg("where")["localhost"] == f"{address} ['module-web']"
    second = run_playbook("localhost,", playbook)
    assert second.task("make it")["localhost"]["changed"] is False
    assert second.msg("where")["localhost"] == f"{address} ['module-web']"
    assert len(instances_named(provider, "module-web")) == 1


def test_missing_credentials_are_a_clear_error(moto_endpoint: str, monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    provider = make_provider("aws", {"endpoint_url": moto_endpoint, "region": REGION})
    with pytest.raises(CredentialsError, match="no usable AWS credentials"):
        provider.servers()
