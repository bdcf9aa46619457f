"""An infra file as an inventory source: servers as hosts, labels, clusters and taskservs as groups, addresses
from the provider's state when a server exists."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from runner.cli.project import load_sources
from runner.config import load_config
from runner.errors import UserError
from runner.testenv.machine import start_time

INFRA = """\
name: wuji
defaults:
  taskservs: [os]
  vars: {ntp_server: pool.ntp.org}
  upcloud: {zone: de-fra1, image: debian-12, ssh_key: /keys/id_ed25519, user: deploy}
providers:
  local: {state_dir: STATE}
servers:
  - hostname: web1
    provider: local
    labels: [web]
    taskservs: [nginx, {name: redis, profile: cache, vars: {maxmemory: 64mb}}]
    vars: {tier: front}
  - hostname: web2
    provider: local
    labels: [web]
  - hostname: db1
    provider: upcloud
    ssh_port: 2222
clusters:
  - name: webfarm
    selector: [web]
    taskservs: [etcd]
    vars: {cluster_size: 2}
"""

# The settings' defaults: no configuration file is found from the root directory.
DEFAULTS = load_config(env={}, cwd=Path("/"))
# any_unparsed_is_failed: a source that cannot be read stops the command (by default it is Ansible's warning)
STRICT = load_config({"any_unparsed_is_failed": True}, env={}, cwd=Path("/"))


@pytest.fixture
def infra_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("UPCLOUD_USERNAME", raising=False)
    monkeypatch.delenv("UPCLOUD_PASSWORD", raising=False)
    path = tmp_path / "infra" / "wuji.yml"
    path.parent.mkdir()
    path.write_text(INFRA.replace("STATE", str(tmp_path / "state")))
    return path


def pretend_local_server_runs(state_dir: Path, env: str, name: str, address: str) -> None:
    """Record a local server as running the way the local provider records one, with this test's own process
    as its init (a pid and start time that really run), so the provider's state reading is exercised."""
    host_dir = state_dir / env / name
    (host_dir / "upper").mkdir(parents=True)
    record = {"name": name, "address": address, "pid": os.getpid(), "start_time": start_time(os.getpid())}
    (host_dir / "host.json").write_text(json.dumps(record))


def test_servers_are_hosts_in_the_groups_of_their_labels_clusters_and_taskservs(infra_file: Path) -> None:
    inventory = load_sources([infra_file], DEFAULTS)
    groups = inventory.groups_dict()
    assert [host.name for host in inventory.get_hosts("all")] == ["web1", "web2", "db1"]
    assert groups["web"] == ["web1", "web2"]
    assert groups["webfarm"] == ["web1", "web2"]
    assert groups["taskserv_os"] == ["web1", "web2", "db1"]
    assert groups["taskserv_nginx"] == ["web1"]
    assert groups["taskserv_redis"] == ["web1"]
    assert groups["taskserv_etcd"] == ["web1", "web2"]  # from the cluster


def test_host_variables_come_from_the_server_its_defaults_and_its_clusters(infra_file: Path) -> None:
    inventory = load_sources([infra_file], DEFAULTS)
    web1 = inventory.host_vars("web1")
    assert (web1["tier"], web1["ntp_server"], web1["cluster_size"]) == ("front", "pool.ntp.org", 2)
    assert web1["provisioning_infra"] == "wuji"
    assert web1["provisioning_infra_file"] == str(infra_file)
    assert web1["provisioning_clusters"] == ["webfarm"]
    assert web1["provisioning_server"]["provider"] == "local"
    assert web1["provisioning_taskservs"] == [
        {"name": "os", "profile": "default", "vars": {}},
        {"name": "nginx", "profile": "default", "vars": {}},
        {"name": "redis", "profile": "cache", "vars": {"maxmemory": "64mb"}},
        {"name": "etcd", "profile": "default", "vars": {}},
    ]
    db1 = inventory.host_vars("db1")
    assert (db1["ansible_user"], db1["ansible_port"]) == ("deploy", 2222)
    assert db1["provisioning_server"]["zone"] == "de-fra1"


def test_servers_that_do_not_exist_have_no_address(infra_file: Path) -> None:
    inventory = load_sources([infra_file], DEFAULTS)
    assert "ansible_host" not in inventory.host_vars("web1")
    assert "ansible_host" not in inventory.host_vars("db1")
    # upcloud cannot be asked without credentials: said once, not an error
    assert inventory.warnings == ["infra 'wuji': no addresses from upcloud: UpCloud needs credentials: set "
                                  "UPCLOUD_USERNAME and UPCLOUD_PASSWORD (or username and password in the upcloud "
                                  "provider settings)"]


def test_a_server_that_exists_gets_its_address_and_login_from_the_provider(infra_file: Path, tmp_path: Path) -> None:
    pretend_local_server_runs(tmp_path / "state", "wuji", "web2", "127.0.0.77")
    inventory = load_sources([infra_file], DEFAULTS)
    web2 = inventory.host_vars("web2")
    assert web2["ansible_host"] == "127.0.0.77"
    assert web2["ansible_user"] == "root"
    assert web2["ansible_ssh_private_key_file"] == str(tmp_path / "state" / "wuji" / "id_ed25519")
    assert web2["provisioning_ssh_known_hosts_file"] == str(tmp_path / "state" / "wuji" / "known_hosts")
    assert "ansible_host" not in inventory.host_vars("web1")


def test_asking_a_provider_can_be_turned_off(infra_file: Path) -> None:
    infra_file.write_text(infra_file.read_text().replace("providers:\n", "providers:\n  upcloud: "
                                                                         "{lookup_addresses: false}\n"))
    assert load_sources([infra_file], DEFAULTS).warnings == []


def test_an_infra_file_is_read_beside_yaml_inventories_in_a_directory(infra_file: Path) -> None:
    (infra_file.parent / "extra.yml").write_text("servers:\n  hosts:\n    web1: {extra: 1}\n    other: {}\n")
    inventory = load_sources([infra_file.parent], DEFAULTS)
    assert inventory.groups_dict()["servers"] == ["web1", "other"]  # a group called servers: a YAML inventory
    assert inventory.host_vars("web1")["extra"] == 1
    assert inventory.host_vars("web1")["provisioning_infra"] == "wuji"


def test_the_marker_line_makes_a_file_an_infra_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.yml"
    path.write_text("# provisioning: infra\nname: empty\nservers:\n")
    inventory = load_sources([path], DEFAULTS)
    assert inventory.hosts == {}
    path.write_text("# provisioning: infra\nname: empty\nservers:\n  - {hostname: a1, provider: gce}\n")
    with pytest.raises(UserError) as caught:
        load_sources([path], STRICT)
    assert str(caught.value) == (f"ERROR: {path}:4:30: unknown provider 'gce': expected one of local, aws, "
                                 "upcloud")


def test_a_broken_infra_file_is_reported_at_its_place(infra_file: Path) -> None:
    infra_file.write_text(infra_file.read_text().replace("    ssh_port: 2222", "    ssh_prot: 2222"))
    with pytest.raises(UserError) as caught:
        load_sources([infra_file], STRICT)
    assert str(caught.value) == (f"ERROR: {infra_file}:19:5: 'ssh_prot' is not a valid upcloud server keyword "
                                 "(did you mean 'ssh_port'?)")
    # by default, as Ansible treats a source it cannot read: a warning at the same place, and no hosts from it
    inventory = load_sources([infra_file], DEFAULTS)
    assert inventory.hosts == {}
    assert any(f"{infra_file}:19:5: 'ssh_prot' is not a valid upcloud server keyword" in warning
               for warning in inventory.warnings), inventory.warnings
