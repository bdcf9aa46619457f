"""--list-tasks, --list-tags, --list-hosts and --syntax-check: they read the compiled plan and touch no host."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from runner.cli.playbook import main

PLAYBOOKS = Path(__file__).resolve().parents[2] / "data" / "playbooks"
CONFIG = {"PROVISIONING_CONFIG": str(PLAYBOOKS / "provisioning.cfg")}


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), env=CONFIG)
    return result.exit_code, result.output


def test_list_tasks_shows_selected_tasks_with_sorted_tags() -> None:
    code, output = run(str(PLAYBOOKS / "tags.yml"), "--list-tasks")
    assert code == 0, output
    assert output.splitlines()[1:] == [
        f"playbook: {PLAYBOOKS / 'tags.yml'}",
        "",
        "  play #1 (host1): tags\tTAGS: [play]",
        "    tasks:",
        "      tagged a\tTAGS: [a, play]",
        "      tagged always\tTAGS: [always, play]",
        "      inside b\tTAGS: [b, play]",
        "      untagged\tTAGS: [play]",
        "      from a file\tTAGS: [file, imported, play]",
        "      include tagged included\tTAGS: [included, play]",
    ]


def test_list_tasks_follows_tag_selection_and_names_role_tasks() -> None:
    code, output = run(str(PLAYBOOKS / "tags.yml"), "--list-tasks", "--tags", "never")
    assert code == 0 and "tagged never\tTAGS: [debug, never, play]" in output and "tagged a\t" not in output
    code, output = run(str(PLAYBOOKS / "roles.yml"), "--list-tasks")
    assert "      common : announce\tTAGS: []" in output and "      spec : announce\tTAGS: []" in output


def test_list_tags() -> None:
    code, output = run(str(PLAYBOOKS / "tags.yml"), "--list-tags")
    assert code == 0
    assert "      TASK TAGS: [a, always, b, file, imported, included, play]" in output
    assert "    tasks:" not in output


def test_list_hosts_reads_the_inventory_but_connects_to_nothing() -> None:
    code, output = run(str(PLAYBOOKS / "blocks.yml"), "--list-hosts", "--list-tasks", "-i", "web1,web2,")
    assert code == 0, output
    assert "    hosts (2):\n      web1\n      web2\n" in output
    assert "      fails on host2\tTAGS: []" in output


def test_syntax_check_compiles_everything_and_names_the_playbook() -> None:
    code, output = run(str(PLAYBOOKS / "includes.yml"), "--syntax-check")
    assert (code, output.strip()) == (0, f"playbook: {PLAYBOOKS / 'includes.yml'}")
    code, output = run(str(PLAYBOOKS / "bad" / "unknown_keyword.yml"), "--syntax-check")
    assert code == 4 and "'become_usr' is not a valid task keyword" in output
