"""``import_infra`` and ``--infra`` in the plan: the server play, the taskserv plays in requirement order with
their health checks, the cluster plays; and every mistake of an infra's taskservs at its file:line:col.
Nothing here runs a play: the plan is what is checked (``--plan``, ``--list-tasks``, ``--syntax-check``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from runner.cli.playbook import main
from tests.support.taskserv_infra import CONFIG, INFRA, write_infra

ENV = {"PROVISIONING_CONFIG": str(CONFIG)}
PROJECT = Path(__file__).resolve().parents[3]


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), env=ENV)


@pytest.fixture
def infra(tmp_path: Path) -> Path:
    return write_infra(tmp_path, tmp_path / "state")


def plan_of(tmp_path: Path, *args: str) -> dict[str, Any]:
    target = tmp_path / "plan.json"
    result = run(*args, "--plan", str(target))
    assert result.exit_code == 0, result.output
    return json.loads(target.read_text())


def playbook(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "site.yml"
    path.write_text(text)
    return path


def nodes(plan: dict[str, Any], play: dict[str, Any]) -> list[dict[str, Any]]:
    """The play's task nodes in order, blocks opened, fact gathering left out."""
    found: list[dict[str, Any]] = []

    def walk(ids: list[int]) -> None:
        for task_id in ids:
            node = plan["tasks"][task_id]
            if node["kind"] == "block":
                walk(node["block"])
            elif node["kind"] != "facts":
                found.append(node)

    for section in play["sections"]:
        walk(section)
    return found


def labels(plan: dict[str, Any], play: dict[str, Any]) -> list[str]:
    return [f"{plan['roles'][node['role']]['name']} : {node['name']}" if node["role"] is not None
            else node["name"] or node["module"] for node in nodes(plan, play)]


def blocks(plan: dict[str, Any], play: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan["tasks"][task_id] for section in play["sections"] for task_id in section
            if plan["tasks"][task_id]["kind"] == "block"]


def block_hosts(plan: dict[str, Any], block: dict[str, Any]) -> list[str]:
    """The condition a block's tasks carry that names the hosts it is for (none: every host of the play)."""
    return [condition for condition in plan["tasks"][block["block"][0]]["when"]
            if condition.startswith("inventory_hostname in")]


def only_for(plan: dict[str, Any], play: dict[str, Any], host: str) -> dict[str, Any]:
    """The play as one host walks it: the blocks meant for every host or named for ``host``."""
    ids = [task_id for section in play["sections"] for task_id in section
           if plan["tasks"][task_id]["kind"] != "block" or f"'{host}'" in "".join(
               block_hosts(plan, plan["tasks"][task_id])) or not block_hosts(plan, plan["tasks"][task_id])]
    return {**play, "sections": [ids]}


def scope_vars(plan: dict[str, Any], node: dict[str, Any], kind: int) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for scope_id in node["scopes"]:
        if plan["scopes"][scope_id]["kind"] == kind:
            merged.update(plan["scopes"][scope_id]["vars"])
    return merged


def test_an_infra_becomes_server_plays_one_taskserv_play_and_cluster_plays(tmp_path: Path, infra: Path) -> None:
    plan = plan_of(tmp_path, str(playbook(tmp_path, "- import_infra: infra.yml\n")))
    assert [(play["name"], play["hosts"], play["strategy"]) for play in plan["plays"]] == [
        ("Servers of infra itest", "localhost", "linear"),
        ("Servers of infra itest: it-web1, it-db1", "it-web1:it-db1:&infra_itest_servers", "free"),
        ("Servers and taskservs of infra itest", "localhost", "linear"),
        ("Taskservs on it-web1, it-db1", "it-web1:it-db1:&infra_itest", "free"),
        ("Cluster farm", "it-web1:it-db1:&infra_itest", "linear"),
    ]
    assert [play["gather_facts"] for play in plan["plays"][:3]] == [False, False, False]


def test_each_server_is_a_host_whose_server_task_creates_it_and_adds_it_with_groups_and_variables(
        tmp_path: Path, infra: Path) -> None:
    plan = plan_of(tmp_path, "--infra", str(infra))
    [declare] = nodes(plan, plan["plays"][0])
    [create] = nodes(plan, plan["plays"][1])
    [listing] = nodes(plan, plan["plays"][2])
    assert declare["module"] == "add_host" and declare["args"]["groups"] == ["infra_itest_servers"]
    web, db = (item["args"] for item in declare["loop"])
    assert (create["name"], create["module"], create["tags"], create["register_var"], create["throttle"]) == (
        "local server", "server", ["always"], "infra_server", 4)
    args = create["args"]
    assert {key: args[key] for key in ("name", "provider", "infra", "user")} == {
        "name": "{{ inventory_hostname }}", "provider": "local", "infra": "itest",
        "user": "{{ infra_server_args.user | default(omit) }}"}
    assert (web["user"], web["ssh_port"]) == ("root", 22)
    assert web["labels"] == ["web", "farm", "taskserv_webdir", "taskserv_mirror", "infra_itest"]
    assert args["provider_config"] == {"state_dir": str(tmp_path / "state"), "base_address": 150,
                                       "poll_interval": 0.1}
    host_vars = web["host_vars"]
    assert (host_vars["provisioning_infra"], host_vars["provisioning_clusters"]) == ("itest", ["farm"])
    assert host_vars["mirror_peers"] == ["it-web1", "it-db1"]  # its cluster's vars, as the inventory source has
    assert [entry["name"] for entry in host_vars["provisioning_taskservs"]] == ["webdir", "mirror"]
    assert db["labels"] == ["farm", "taskserv_files", "taskserv_mirror", "infra_itest"]
    assert listing["module"] == "debug" and listing["args"]["msg"] == [
        "{{ hostvars['it-web1'].infra_server.msg | default('it-web1 is not in this run') }}; taskservs: os, "
        "files, webdir",
        "{{ hostvars['it-db1'].infra_server.msg | default('it-db1 is not in this run') }}; taskservs: os, files",
        "cluster farm (it-web1, it-db1): webdir (on it-db1), mirror",
    ]


def test_taskservs_in_requirement_order_each_health_checked_before_the_next(tmp_path: Path, infra: Path) -> None:
    plan = plan_of(tmp_path, "--infra", str(infra))
    web1 = only_for(plan, plan["plays"][3], "it-web1")
    assert labels(plan, web1) == [
        "os : supported system", "os : The taskservs' own directory", "os : Record the install order", "meta",
        "os : health check (command)",
        "files : The web root", "files : The page", "files : Record the install order", "meta",
        "files : health check (command)",
        "webdir : Record the install order", "webdir : Serve /srv/www on the host's own address", "meta",
        "webdir : health check (port)",
    ]
    flush, check = nodes(plan, web1)[-2:]
    assert flush["module"] == "meta" and flush["args"] == {"_raw_params": "flush_handlers"}
    assert check["module"] == "wait_for" and check["args"] == {
        "host": "{{ ansible_host | default(inventory_hostname) }}", "port": "{{ webdir_port }}", "timeout": 5}
    assert (check["until"], check["retries"], check["delay"], check["changed_when"]) == (
        ["taskserv_health is succeeded"], 20, 1, [False])
    assert check["when"][-1] == "not ansible_check_mode"
    system = nodes(plan, web1)[0]
    assert system["module"] == "assert" and system["args"]["that"] == [
        "('debian' in [ansible_distribution | lower, ansible_os_family | lower])"]
    assert [block["tags"] for block in blocks(plan, web1)] == [["os"], ["files"], ["webdir"]]


def test_a_health_check_reads_what_the_roles_of_its_play_define(tmp_path: Path, infra: Path) -> None:
    plan = plan_of(tmp_path, "--infra", str(infra))
    web1 = plan["plays"][3]
    defaults = {}
    for scope_id in web1["scopes"]:
        if plan["scopes"][scope_id]["kind"] == 10:  # role defaults
            defaults.update(plan["scopes"][scope_id]["vars"])
    assert defaults["webdir_port"] == 8088


def test_the_profile_and_vars_the_infra_gives_are_role_parameters_and_block_vars(tmp_path: Path,
                                                                                  infra: Path) -> None:
    plan = plan_of(tmp_path, "--infra", str(infra))
    db1 = only_for(plan, plan["plays"][3], "it-db1")
    page = next(node for node in nodes(plan, db1) if node["name"] == "The page")
    settings = {"taskserv_profile": "big", "files_size": 3, "files_greeting": "hello db"}
    assert scope_vars(plan, page, 100) == settings  # role parameters
    check = next(node for node in nodes(plan, db1) if node["name"] == "files : health check (command)")
    for node in (page, check):  # block variables: the role's tasks and the health check see the same
        assert scope_vars(plan, node, 60) == {"taskserv_name": "files", "taskserv_version": "1.2.0", **settings}
    base = nodes(plan, db1)[1]
    assert (base["name"], scope_vars(plan, base, 60), scope_vars(plan, base, 100)) == (
        "The taskservs' own directory",
        {"taskserv_name": "os", "taskserv_profile": "default", "taskserv_version": "1.0.0"}, {})


def test_a_cluster_installs_what_a_member_lacks_on_that_member_only(tmp_path: Path, infra: Path) -> None:
    plan = plan_of(tmp_path, "--infra", str(infra))
    farm = plan["plays"][4]
    assert [block["tags"] for block in blocks(plan, farm)] == [["webdir"], ["mirror"]]
    conditions = {label: node["when"] for label, node in zip(labels(plan, farm), nodes(plan, farm), strict=True)}
    assert conditions["webdir : Record the install order"] == ["inventory_hostname in ['it-db1']"]
    assert conditions["mirror : Record the install order"] == []
    assert labels(plan, farm)[-1] == "mirror : health check (url)"
    assert {"mirror_peers": ["it-web1", "it-db1"]}.items() <= {
        key: value for scope in farm["scopes"] for key, value in plan["scopes"][scope]["vars"].items()}.items()


def test_servers_with_the_same_taskservs_and_settings_share_their_blocks(tmp_path: Path) -> None:
    text = INFRA.replace("  - hostname: it-db1\n    provider: local\n    taskservs:\n"
                         "      - {{name: files, profile: big, vars: {{files_greeting: hello db}}}}\n",
                         "  - hostname: it-web2\n    provider: local\n    taskservs: [webdir]\n")
    infra = write_infra(tmp_path, tmp_path / "state", text=text.replace("[it-web1, it-db1]", "[it-web1]"))
    plan = plan_of(tmp_path, "--infra", str(infra))
    assert [(play["name"], play["hosts"]) for play in plan["plays"][3:5]] == [
        ("Taskservs on it-web1, it-web2", "it-web1:it-web2:&infra_itest"), ("Cluster farm", "it-web1:&infra_itest")]
    assert [(block["tags"], block_hosts(plan, block)) for block in blocks(plan, plan["plays"][3])] == [
        (["os"], []), (["files"], []), (["webdir"], [])]


def test_each_server_walks_its_own_order_in_the_one_taskserv_play(tmp_path: Path) -> None:
    text = INFRA.replace("taskservs: [webdir]", "taskservs: [webdir, {{name: files, profile: big}}]")
    plan = plan_of(tmp_path, "--infra", str(write_infra(tmp_path, tmp_path / "state", text=text)))
    play = plan["plays"][3]
    web1, db1 = ["inventory_hostname in ['it-web1']"], ["inventory_hostname in ['it-db1']"]
    assert [(block["tags"], block_hosts(plan, block)) for block in blocks(plan, play)] == [
        (["os"], []), (["files"], db1), (["files"], web1), (["webdir"], web1)]


def test_import_infra_gives_its_vars_and_tags_to_every_play_it_expands_into(tmp_path: Path, infra: Path) -> None:
    site = playbook(tmp_path, "- import_infra: infra.yml\n  vars: {webdir_port: 9000}\n  tags: [infra]\n"
                              "- hosts: farm\n  gather_facts: false\n  tasks:\n    - ping:\n")
    plan = plan_of(tmp_path, str(site))
    assert [play["tags"] for play in plan["plays"]] == [["infra"]] * 5 + [[]]
    assert plan["scopes"][plan["plays"][3]["scopes"][0]]["vars"] == {"webdir_port": 9000}


def test_list_tasks_shows_the_whole_expansion(tmp_path: Path, infra: Path) -> None:
    result = run("--infra", str(infra), "--list-tasks")
    assert result.exit_code == 0, result.output
    assert "play #1 (localhost): Servers of infra itest" in result.output
    assert "play #5 (it-web1:it-db1:&infra_itest): Cluster farm" in result.output
    assert "      webdir : health check (port)\tTAGS: [webdir]" in result.output


@pytest.mark.parametrize(("servers", "message", "where"), [
    ("taskservs: [webdri]", "The role 'webdri' was not found in: ", (8, 17)),
    ("taskservs: [webdir, otherweb]", "taskservs 'webdir' and 'otherweb' conflict on 'it-web1'", (8, 25)),
    ("taskservs: [{{name: files, profile: huge}}]", "taskserv 'files' has no profile 'huge' (its profiles: big)",
     (8, 17)),
])
def test_a_mistake_in_an_infra_is_reported_where_the_infra_names_the_taskserv(
        tmp_path: Path, servers: str, message: str, where: tuple[int, int]) -> None:
    (tmp_path / "roles" / "otherweb" / "tasks").mkdir(parents=True)
    (tmp_path / "roles" / "otherweb" / "tasks" / "main.yml").write_text("- ping:\n")
    infra = write_infra(tmp_path, tmp_path / "state", text=INFRA.replace("taskservs: [webdir]", servers))
    result = run("--infra", str(infra), "--syntax-check")
    assert result.exit_code == 4, result.output
    assert f"ERROR: {infra}:{where[0]}:{where[1]}: {message}" in result.output
    assert "Traceback" not in result.output


def test_every_problem_of_every_server_at_once(tmp_path: Path) -> None:
    text = INFRA.replace("taskservs: [webdir]", "taskservs: [webdri]").replace("profile: big", "profile: huge")
    infra = write_infra(tmp_path, tmp_path / "state", text=text)
    result = run("--infra", str(infra), "--syntax-check")
    assert result.exit_code == 4
    assert result.output.count("ERROR: ") == 2, result.output
    assert "did you mean 'webdir'?" in result.output and "has no profile 'huge'" in result.output


def test_a_missing_infra_file_is_reported_at_the_import(tmp_path: Path) -> None:
    site = playbook(tmp_path, "- hosts: localhost\n  tasks: []\n- import_infra: nowhere.yml\n")
    result = run(str(site), "--syntax-check")
    assert result.exit_code == 4
    assert f"ERROR: {site}:3:3: the imported infra {tmp_path / 'nowhere.yml'} could not be found" in result.output


def test_a_playbook_or_an_infra_is_needed(tmp_path: Path) -> None:
    result = run()
    assert result.exit_code == 5
    assert "name a playbook to run (or an infra with --infra FILE)" in result.output


def test_the_main_job_creates_its_infra_and_gives_every_server_os_first(tmp_path: Path) -> None:
    target = tmp_path / "plan.json"
    result = CliRunner().invoke(main, [str(PROJECT / "playbooks" / "site.yml"), "--plan", str(target)],
                                env={"PROVISIONING_CONFIG": str(PROJECT / "provisioning.cfg")})
    assert result.exit_code == 0, result.output
    plan = json.loads(target.read_text())
    [declare] = nodes(plan, plan["plays"][0])
    assert [item["name"] for item in declare["loop"]] == ["web1", "db1", "cache1"]
    [taskserv_play] = [play for play in plan["plays"] if play["name"].startswith("Taskservs on")]
    assert taskserv_play["hosts"] == "web1:db1:cache1:&infra_local"
    first = blocks(plan, taskserv_play)[0]
    assert first["tags"] == ["os"] and block_hosts(plan, first) == []


def test_six_servers_make_one_server_pass_and_one_taskserv_pass(tmp_path: Path) -> None:
    servers = "".join(f"  - {{{{hostname: s{index}, provider: local, taskservs: [{taskserv}]}}}}\n"
                      for index, taskserv in enumerate(["webdir", "files", "webdir", "mirror", "files", "os"]))
    text = INFRA[:INFRA.index("servers:")] + "servers:\n" + servers
    plan = plan_of(tmp_path, "--infra", str(write_infra(tmp_path, tmp_path / "state", text=text)))
    names = [f"s{index}" for index in range(6)]
    passes = [(play["name"], play["hosts"]) for play in plan["plays"] if play["strategy"] == "free"]
    assert passes == [(f"Servers of infra itest: {', '.join(names)}", ":".join(names) + ":&infra_itest_servers"),
                      (f"Taskservs on {', '.join(names)}", ":".join(names) + ":&infra_itest")]
    [create] = nodes(plan, plan["plays"][1])
    assert create["throttle"] == 4  # the local provider's default 'parallel'
