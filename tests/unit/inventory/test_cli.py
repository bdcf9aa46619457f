"""provisioning-inventory: --list, --graph and --host output, options and errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from ruamel.yaml import YAML

from runner.cli.inventory import main
from tests.unit.inventory.files import write_tree

FILES = {
    "inv/hosts": """
        solo
        [web]
        web01 http_port=80
        web02
        [db]
        db01
        [prod:children]
        web
        db
        [prod:vars]
        env=production
        ansible_group_priority=2
    """,
    "inv/group_vars/all.yml": "ntp: pool.ntp.org\n",
    "inv/host_vars/db01.yml": "role: primary\n",
    "play/group_vars/web.yml": "from_play: true\n",
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return write_tree(tmp_path, FILES)


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return CliRunner().invoke(main, list(args), env=env)


def test_list_is_ansible_inventory_json(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--list")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["all"] == {"children": ["ungrouped", "prod"]}
    assert data["ungrouped"] == {"hosts": ["solo"]}
    assert data["web"] == {"hosts": ["web01", "web02"]}
    assert data["prod"] == {"children": ["web", "db"]}
    assert data["_meta"]["hostvars"]["web01"] == {"http_port": 80, "env": "production", "ntp": "pool.ntp.org"}
    assert data["_meta"]["hostvars"]["db01"] == {"env": "production", "ntp": "pool.ntp.org", "role": "primary"}
    assert "inventory_hostname" not in data["_meta"]["hostvars"]["solo"]
    assert data["_meta"]["profile"] == "inventory_legacy"  # as ansible-core 2.19 marks its output


def test_list_takes_a_group_argument_and_shows_everything_as_ansible_does(project: Path) -> None:
    whole = run("-i", str(project / "inv"), "--list")
    assert run("-i", str(project / "inv"), "--list", "web").stdout == whole.stdout


def test_list_with_playbook_dir_and_limit(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--list", "--playbook-dir", str(project / "play"), "-l", "web01")
    data = json.loads(result.stdout)
    assert list(data["_meta"]["hostvars"]) == ["web01"]
    assert data["_meta"]["hostvars"]["web01"]["from_play"] is True
    assert data["web"] == {"hosts": ["web01"]}
    assert "db" not in data


def test_list_export_keeps_vars_on_groups(project: Path) -> None:
    data = json.loads(run("-i", str(project / "inv"), "--list", "--export").stdout)
    assert data["prod"]["vars"] == {"env": "production", "ansible_group_priority": 2}
    assert data["all"]["vars"] == {"ntp": "pool.ntp.org"}
    assert data["_meta"]["hostvars"]["web01"] == {"http_port": 80}
    assert data["_meta"]["hostvars"]["db01"] == {"role": "primary"}


def test_list_yaml(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--list", "--yaml")
    assert result.exit_code == 0, result.output
    data = YAML(typ="safe").load(result.stdout)
    assert data["all"]["children"]["ungrouped"] == {"hosts": {"solo": {"ntp": "pool.ntp.org"}}}
    web = data["all"]["children"]["prod"]["children"]["web"]["hosts"]
    assert web["web01"] == {"http_port": 80, "env": "production", "ntp": "pool.ntp.org"}


def test_graph(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--graph")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "@all:",
        "  |--@ungrouped:",
        "  |  |--solo",
        "  |--@prod:",
        "  |  |--@web:",
        "  |  |  |--web01",
        "  |  |  |--web02",
        "  |  |--@db:",
        "  |  |  |--db01",
    ]


def test_graph_of_one_group_with_vars(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--graph", "prod", "--vars")
    assert result.stdout.splitlines() == [
        "@prod:",
        "  |--@web:",
        "  |  |--web01",
        "  |  |  |--{http_port = 80}",
        "  |  |--web02",
        "  |--@db:",
        "  |  |--db01",
        "  |  |  |--{role = primary}",
        "  |--{ansible_group_priority = 2}",
        "  |--{env = production}",
    ]


def test_host(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--host", "db01")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"env": "production", "ntp": "pool.ntp.org", "role": "primary"}
    assert result.stdout.startswith('{\n    "env"')  # sorted keys, indented as ansible-inventory


def test_host_implicit_localhost(project: Path) -> None:
    variables = json.loads(run("-i", str(project / "inv"), "--host", "localhost").stdout)
    assert variables["ansible_connection"] == "local"
    assert variables["ntp"] == "pool.ntp.org"


def test_host_yaml(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--host", "web01", "--yaml")
    assert YAML(typ="safe").load(result.stdout) == {"env": "production", "http_port": 80, "ntp": "pool.ntp.org"}


def test_several_inventories_and_host_lists(project: Path) -> None:
    data = json.loads(run("-i", str(project / "inv"), "-i", "extra1,extra2", "--list").stdout)
    assert data["ungrouped"] == {"hosts": ["solo", "extra1", "extra2"]}


def test_default_inventory_from_environment(project: Path) -> None:
    result = run("--graph", "web", env={"PROVISIONING_INVENTORY": str(project / "inv" / "hosts")})
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["@web:", "  |--web01", "  |--web02"]


def test_limit_matching_nothing_warns(project: Path) -> None:
    result = run("-i", str(project / "inv"), "--list", "-l", "nothing")
    assert result.exit_code == 0
    assert "[WARNING]: no hosts matched the limit 'nothing'" in result.stderr
    assert json.loads(result.stdout)["_meta"] == {"hostvars": {}, "profile": "inventory_legacy"}


@pytest.mark.parametrize(("args", "code", "message"), [
    ((), 5, "give exactly one of --list, --graph, --host NAME or --list-hosts"),
    (("--list", "--graph"), 5, "give exactly one of"),
    (("--list-hosts", "web"), 5, "only used with --graph"),
    (("--host", "web1"), 5, "unknown host 'web1' for --host (did you mean 'web01'?)"),
    (("--graph", "wbe"), 5, "'wbe' is not a group (did you mean 'web'?)"),
])
def test_option_errors(project: Path, args: tuple[str, ...], code: int, message: str) -> None:
    result = run("-i", str(project / "inv"), *args)
    assert result.exit_code == code
    assert message in result.stderr
    assert "Traceback" not in result.output


def test_a_malformed_inventory_is_a_warning_naming_file_and_line_and_the_rest_is_read(project: Path) -> None:
    # Ansible's default: a source no plugin can read is warned about, and the others are used
    (project / "bad").write_text("[web]\nw1 oops\n", encoding="utf-8")
    result = run("-i", str(project / "bad"), "-i", str(project / "inv"), "--list")
    assert result.exit_code == 0, result.output
    assert (f"[WARNING]: Failed to parse inventory with 'ini' plugin: {project / 'bad'}:2:1: expected "
            "key=value host variable, got 'oops'") in result.stderr.splitlines()
    assert f"[WARNING]: Unable to parse {project / 'bad'} as an inventory source" in result.stderr.splitlines()
    assert "web01" in json.loads(result.stdout)["_meta"]["hostvars"]


def test_a_malformed_inventory_is_an_error_with_any_unparsed_is_failed(project: Path) -> None:
    (project / "bad").write_text("[web]\nw1 oops\n", encoding="utf-8")
    result = run("-i", str(project / "bad"), "--list", env={"ANSIBLE_INVENTORY_ANY_UNPARSED_IS_FAILED": "true"})
    assert result.exit_code == 4
    assert result.stderr.splitlines()[0] == (f"ERROR: {project / 'bad'}:2:1: expected key=value host variable, "
                                              f"got 'oops'")
    assert result.stdout == ""


def test_a_missing_inventory_source_leaves_the_implicit_localhost(project: Path) -> None:
    result = run("-i", str(project / "nowhere"), "--list")
    assert result.exit_code == 0, result.output
    assert f"[WARNING]: Unable to parse {project / 'nowhere'} as an inventory source (inventory source not found" \
        in result.stderr
    assert "[WARNING]: No inventory was parsed, only implicit localhost is available" in result.stderr
    assert json.loads(result.stdout)["all"] == {"children": ["ungrouped"]}


def test_no_source_read_stops_the_command_with_unparsed_is_failed(project: Path) -> None:
    result = run("-i", str(project / "nowhere"), "--list", env={"ANSIBLE_INVENTORY_UNPARSED_FAILED": "1"})
    assert result.exit_code == 1
    assert result.stderr.startswith("ERROR: No inventory was parsed, please check your configuration and options")
    assert f"Unable to parse {project / 'nowhere'} as an inventory source" in result.stderr


def test_list_yaml_describes_a_group_once(tmp_path: Path) -> None:
    write_tree(tmp_path, {"hosts.yml": """
        all:
          children:
            web:
              hosts:
                w1: {port: 80}
            prod:
              children:
                web:
    """})
    data = YAML(typ="safe").load(run("-i", str(tmp_path / "hosts.yml"), "--list", "--yaml").stdout)
    assert data["all"]["children"]["web"] == {"hosts": {"w1": {"port": 80}}}
    assert data["all"]["children"]["prod"] == {"children": {"web": {}}}
