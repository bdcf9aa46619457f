"""Infra files: servers per provider, defaults merged in order, clusters, and every problem at file:line:col."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from ruamel.yaml import YAML

from runner.errors import UserError
from runner.infra import AwsServer, LocalServer, UpcloudServer, is_infra, load_infra
from runner.infra import schemas as infra_schemas
from runner.models.validation import ParseErrors

GOOD = """\
name: wuji
defaults:
  taskservs: [os]
  labels: [managed]
  user: admin
  vars: {region_name: europe, tier: base}
  aws:
    region: eu-west-1
    image: ami-0abc
    user: ec2-user
  upcloud:
    zone: de-fra1
    image: debian-12
    ssh_key: keys/id_ed25519
providers:
  local: {state_dir: /tmp/state, base_address: 50}
  aws: {endpoint_url: "http://127.0.0.1:5000", wait_for_ssh: false}
servers:
  - hostname: web1
    provider: local
    labels: [web]
    taskservs: [nginx, {name: os, profile: hardened, vars: {ntp: pool.ntp.org}}]
    vars: {tier: front}
  - hostname: web2
    provider: aws
    plan: t3.small
    groups: [web]
    tags: {team: platform, cost: 12}
  - hostname: db1
    provider: upcloud
    plan: 2xCPU-4GB
    user: root
    disk_gb: 50
clusters:
  - name: webfarm
    selector: [web]
    taskservs: [etcd]
    vars: {cluster_size: 2}
  - name: data
    servers: [db1]
"""

BAD = """\
name: wuji
defaults:
  zone: de-fra1
  aws:
    regoin: eu-west-1
servers:
  - hostname: web1
    provider: local
    plan: big
    address: 127.0.0.1
  - hostname: web2
    provider: awz
  - hostname: web3
    provider: aws
    disk_gb: -3
  - hostname: web4
    provider: upcloud
    labels: [web]
    groups: [x]
  - hostname: web4
    provider: local
  - provider: local
clusters:
  - name: c1
    servers: [web1, web9]
  - name: c2
  - name: c3
    selector: [web]
    taskservs: [1]
"""


def write(tmp_path: Path, text: str, name: str = "wuji.yml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def problems(path: Path) -> list[tuple[int | None, int | None, str]]:
    with pytest.raises(UserError) as caught:
        load_infra(path)
    errors = caught.value.errors if isinstance(caught.value, ParseErrors) else [caught.value]
    return [(error.position.line, error.position.column, error.render(with_excerpt=False)) for error in errors]


def test_servers_are_read_as_their_providers_models(tmp_path: Path) -> None:
    infra = load_infra(write(tmp_path, GOOD))
    assert infra.name == "wuji"
    assert [type(server) for server in infra.servers] == [LocalServer, AwsServer, UpcloudServer]
    assert infra.providers.local.base_address == 50
    assert infra.providers.aws.endpoint_url == "http://127.0.0.1:5000"
    assert infra.providers.aws.wait_for_ssh is False


def test_defaults_merge_provider_defaults_then_infra_then_provider_section_then_server(tmp_path: Path) -> None:
    infra = load_infra(write(tmp_path, GOOD))
    web1, web2, db1 = infra.servers
    # user: the infra's default, over the provider's own default (root for local servers)
    assert web1.user == "admin"
    # defaults.aws is more specific than defaults; the server wins over both
    assert (web2.user, web2.region, web2.image, web2.instance_type) == ("ec2-user", "eu-west-1", "ami-0abc", "t3.small")
    assert (db1.user, db1.plan, db1.disk_gb, db1.zone) == ("root", "2xCPU-4GB", 50, "de-fra1")
    # a setting nobody wrote keeps the provider's default
    assert db1.network == ["public", "utility"]


def test_vars_merge_by_name_labels_add_and_taskservs_replace_by_name(tmp_path: Path) -> None:
    web1 = load_infra(write(tmp_path, GOOD)).servers[0]
    assert dict(web1.vars) == {"region_name": "europe", "tier": "front"}
    assert web1.labels == ["managed", "web"]
    taskservs = [(taskserv.name, taskserv.profile) for taskserv in web1.taskservs]
    assert taskservs == [("os", "hardened"), ("nginx", "default")]
    assert dict(web1.taskservs[0].vars) == {"ntp": "pool.ntp.org"}


def test_other_spellings_and_relative_key_paths(tmp_path: Path) -> None:
    infra = load_infra(write(tmp_path, GOOD))
    web2, db1 = infra.servers[1], infra.servers[2]
    assert web2.labels == ["managed", "web"]  # written as groups
    assert web2.tags == {"team": "platform", "cost": "12"}
    assert db1.ssh_key == str(tmp_path / "keys" / "id_ed25519")


def test_clusters_select_servers_by_label_or_name(tmp_path: Path) -> None:
    infra = load_infra(write(tmp_path, GOOD))
    webfarm, data = infra.clusters
    assert [server.hostname for server in infra.members(webfarm)] == ["web1", "web2"]
    assert [server.hostname for server in infra.members(data)] == ["db1"]
    assert [cluster.name for cluster in infra.clusters_of(infra.servers[0])] == ["webfarm"]


def test_the_name_defaults_to_the_file_name(tmp_path: Path) -> None:
    infra = load_infra(write(tmp_path, "servers:\n  - {hostname: a1, provider: local}\n", "librecloud.yml"))
    assert infra.name == "librecloud"


def test_every_problem_is_reported_at_its_place(tmp_path: Path) -> None:
    found = problems(write(tmp_path, BAD))
    expected = [
        (3, 3, "'zone' is a setting of aws and upcloud servers: write it under defaults.aws or defaults.upcloud"),
        (5, 5, "'regoin' is not a valid aws server keyword (did you mean 'region'?)"),
        (9, 5, "'plan' is not a valid local server keyword"),
        (10, 14, "expected an address from 127.0.0.2 to 127.0.0.254, got '127.0.0.1'"),
        (12, 15, "unknown provider 'awz': expected one of local, aws, upcloud (did you mean 'aws'?)"),
        (15, 14, "expected a positive whole number, got -3"),
        (16, 5, "server 'web4' needs 'zone': set it on the server or under defaults.upcloud"),
        (16, 5, "server 'web4' needs 'image': set it on the server or under defaults.upcloud"),
        (16, 5, "server 'web4' needs 'ssh_key': set it on the server or under defaults.upcloud"),
        (19, 5, "give either 'labels' or 'groups' (they are one setting)"),
        (20, 5, "server 'web4' is declared twice"),
        (22, 5, "missing required keyword 'hostname'"),
        (25, 21, "cluster 'c1' names an unknown server 'web9' (did you mean 'web4'?)"),
        (26, 5, "a cluster needs 'servers' (hostnames) or 'selector' (labels)"),
        (29, 17, "expected a mapping of taskserv keywords, got 1"),
    ]
    assert len(found) == len(expected)
    for (line, column, text), (want_line, want_column, want_text) in zip(found, expected, strict=True):
        assert (line, column) == (want_line, want_column), text
        assert text.startswith(f"ERROR: {tmp_path / 'wuji.yml'}:{line}:{column}: {want_text}")


def test_a_server_without_a_provider_and_a_selector_that_matches_nothing(tmp_path: Path) -> None:
    text = "servers:\n  - hostname: a1\n  - {hostname: a2, provider: local, labels: [web]}\n" \
           "clusters:\n  - {name: db, selector: [db]}\n"
    path = write(tmp_path, text)
    assert problems(path) == [
        (2, 5, f"ERROR: {path}:2:5: a server needs 'provider': one of local, aws, upcloud"),
    ]
    path.write_text(text.replace("  - hostname: a1\n", ""))
    assert problems(path) == [
        (4, 5, f"ERROR: {path}:4:5: cluster 'db': no server carries every label of ['db']"),
    ]


def test_two_local_servers_cannot_share_an_address(tmp_path: Path) -> None:
    path = write(tmp_path, "servers:\n  - {hostname: a1, provider: local, address: 127.0.0.9}\n"
                           "  - {hostname: a2, provider: local, address: 127.0.0.9}\n")
    assert problems(path) == [
        (3, 5, f"ERROR: {path}:3:5: servers 'a1' and 'a2' both ask for address 127.0.0.9"),
    ]


def test_not_a_mapping_and_missing_servers(tmp_path: Path) -> None:
    assert problems(write(tmp_path, "- a\n"))[0][:2] == (1, 1)
    assert "missing required keyword 'servers'" in problems(write(tmp_path, "name: x\n"))[0][2]


def test_infra_files_are_told_from_yaml_inventories(tmp_path: Path) -> None:
    yaml = YAML(typ="rt")
    assert is_infra(tmp_path / "x.yml", yaml.load("servers: []\n"))
    assert not is_infra(tmp_path / "x.yml", yaml.load("servers:\n  hosts: {a: null}\n"))
    marked = write(tmp_path, "# provisioning: infra\nname: empty\n", "marked.yml")
    assert is_infra(marked, yaml.load(marked.read_text()))


# --- the JSON Schema ------------------------------------------------------------------------------------------

def test_the_committed_infra_schema_is_current() -> None:
    assert infra_schemas.stale() == [], "run: python -m runner.infra.schemas"


def test_check_mode_of_the_schema_command_reports_a_stale_file(tmp_path: Path) -> None:
    assert infra_schemas.main(["--dir", str(tmp_path)]) == 0
    assert infra_schemas.main(["--check", "--dir", str(tmp_path)]) == 0
    (tmp_path / "infra.schema.json").write_text("{}\n")
    assert infra_schemas.main(["--check", "--dir", str(tmp_path)]) == 1


def test_the_schema_accepts_what_loads_and_rejects_unknown_settings() -> None:
    schema = json.loads((infra_schemas.schemas.SCHEMA_DIR / "infra.schema.json").read_text())
    jsonschema.validate(YAML(typ="safe").load(GOOD), schema)
    for bad in ("servers: [{hostname: a, provider: local, plan: big}]\n",
                "servers: [{hostname: a, provider: gcp}]\n",
                "servers: []\ndefaults: {zone: x}\n"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(YAML(typ="safe").load(bad), schema)
