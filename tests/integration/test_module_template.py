"""template on a test host: rendered on the controller with the task's variables and the template variables,
written by the copy module (check mode, diff, attributes, backup, validate), Jinja2 options, clear failures, and
as deploy through sudo."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.templating import ANSIBLE_MANAGED
from tests.integration.playbook_run import host_file
from tests.support.playbook_run import run_playbook
from tests.support.remote_harness import RemoteHost, converge, infra_for

SITE = """# {{ ansible_managed }}
listen {{ address }}:{{ port }}
{% for name in names %}
server {{ name }}
{% endfor %}
# from {{ template_path | basename }} for {{ template_destpath }}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A role on the controller with templates/site.conf.j2 and templates/brackets.tmpl."""
    templates = tmp_path / "role" / "templates"
    templates.mkdir(parents=True)
    (templates / "site.conf.j2").write_text(SITE)
    (templates / "brackets.tmpl").write_text("value: [% value %] and {{ kept }}\n{% if true %}\n  x\n{% endif %}\n")
    return tmp_path / "role"


VARS = {"address": "127.0.0.20", "port": 8080, "names": ["a", "b"]}


def test_rendered_with_task_variables(host: RemoteHost, scratch: str, project: Path, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{scratch}/site.conf"
    args = {"src": "site.conf.j2", "dest": dest, "mode": "0640"}
    result = converge(host, "template", args, state=lambda: infra.file(dest).exists, search_paths=[project],
                      task_vars=VARS)
    expected = (f"# {ANSIBLE_MANAGED}\nlisten 127.0.0.20:8080\nserver a\nserver b\n"
                f"# from site.conf.j2 for {dest}\n")
    assert infra.file(dest).content_string == expected and infra.file(dest).mode == 0o640
    assert result["diff"]["after"] == expected and result["diff"]["after_header"] == "site.conf.j2"
    assert result["src"] == str(project / "templates" / "site.conf.j2") and result["dest"] == dest
    changed = host.run("template", args, search_paths=[project], task_vars={**VARS, "port": 9090}, diff=True,
                       check=True)
    assert changed["changed"] is True and "8080" in changed["diff"]["before"] and "9090" in changed["diff"]["after"]


def test_jinja_options_and_line_endings(host: RemoteHost, scratch: str, project: Path, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{scratch}/brackets"
    args = {"src": "brackets.tmpl", "dest": dest, "variable_start_string": "[%", "variable_end_string": "%]",
            "lstrip_blocks": True, "newline_sequence": "\\r\\n"}
    converge(host, "template", args, state=lambda: infra.file(dest).exists, search_paths=[project],
             task_vars={"value": 42})
    assert infra.file(dest).content_string == "value: 42 and {{ kept }}\r\n  x\r\n"


def test_backup_validate_and_force(host: RemoteHost, scratch: str, project: Path, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{scratch}/site.conf"
    host.shell(f"echo old > {dest}")
    refused = host.run("template", {"src": "site.conf.j2", "dest": dest, "validate": "grep -q nothing-like-this %s"},
                       search_paths=[project], task_vars=VARS)
    assert refused["failed"] and infra.file(dest).content_string == "old\n"
    kept = host.run("template", {"src": "site.conf.j2", "dest": dest, "force": False}, search_paths=[project],
                    task_vars=VARS)
    assert kept["changed"] is False and infra.file(dest).content_string == "old\n"
    args = {"src": "site.conf.j2", "dest": dest, "backup": True, "validate": "grep -q listen %s"}
    written = host.run("template", args, search_paths=[project], task_vars=VARS)
    assert written["changed"] is True and infra.file(written["backup_file"]).content_string == "old\n"


def test_failures_say_what_is_wrong(host: RemoteHost, scratch: str, project: Path) -> None:
    missing = host.run("template", {"src": "none.j2", "dest": f"{scratch}/x"}, search_paths=[project])
    assert missing["failed"] and "Could not find or access 'none.j2'" in missing["msg"]
    undefined = host.run("template", {"src": "site.conf.j2", "dest": f"{scratch}/x"}, search_paths=[project],
                         task_vars={"port": 1, "names": []})
    assert undefined["failed"] and "'address' is undefined" in undefined["msg"]
    assert "site.conf.j2" in undefined["msg"]
    no_dest = host.run("template", {"src": "site.conf.j2"}, search_paths=[project])
    assert no_dest["msg"] == "missing required arguments: dest"


def test_as_deploy_with_sudo(host_as_deploy: RemoteHost, scratch: str, project: Path, testenv) -> None:
    infra = infra_for(testenv)
    dest = f"{scratch}/owned"
    converge(host_as_deploy, "template", {"src": "site.conf.j2", "dest": dest, "owner": "deploy", "mode": "0600"},
             state=lambda: infra.file(dest).exists, search_paths=[project], task_vars=VARS)
    assert infra.file(dest).user == "deploy" and infra.file(dest).mode == 0o600


def test_in_a_playbook_role_with_a_check_run_first(scratch: str, tmp_path: Path, inventory_path: Path,
                                                   testenv) -> None:
    """Through provisioning-playbook: the role's templates/, its defaults and the host's variables; --check on a
    fresh directory predicts the whole run (the directory, the file inside it, and stat of the file)."""
    role = tmp_path / "roles" / "web"
    (role / "templates").mkdir(parents=True)
    (role / "defaults").mkdir()
    (role / "tasks").mkdir()
    (role / "defaults" / "main.yml").write_text("port: 8080\n")
    (role / "templates" / "site.j2").write_text("# {{ ansible_managed }}\nport {{ port }}\n"
                                                "host {{ inventory_hostname }}\n")
    (role / "tasks" / "main.yml").write_text(f"""
- file: {{path: "{scratch}/site", state: directory}}
- template: {{src: site.j2, dest: "{scratch}/site/site.conf", mode: "0640"}}
- stat: {{path: "{scratch}/site/site.conf"}}
  register: written
- assert: {{that: [written.stat.exists, written.stat.isreg]}}
""")
    playbook = tmp_path / "site.yml"
    playbook.write_text("- hosts: host1\n  gather_facts: false\n  roles: [web]\n")
    checked = run_playbook(inventory_path, playbook, "--check")
    assert checked.exit_code == 0, checked.output
    assert not host_file(testenv, "host1", f"{scratch}/site").exists()
    done = run_playbook(inventory_path, playbook)
    assert done.exit_code == 0, done.output
    written = host_file(testenv, "host1", f"{scratch}/site/site.conf")
    assert written.read_text() == f"# {ANSIBLE_MANAGED}\nport 8080\nhost host1\n"
    again = run_playbook(inventory_path, playbook)
    assert again.exit_code == 0 and again.stats["host1"]["changed"] == 0, again.output
