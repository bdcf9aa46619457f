"""Action plugins written against ansible-core's ActionBase that send files and run commands themselves, on the
shared test hosts: the remote temporary directory, ``_transfer_data``, ``_fixup_perms2``,
``_low_level_execute_command``, ``_execute_remote_stat`` and ``_remote_expand_user`` run over the host's session,
then a module works on the sent file; check mode, diff, become and no_log as the task says, the temporary
directory gone afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.testenv import TestEnv
from tests.integration.playbook_run import fresh_dir
from tests.integration.test_testenv import out
from tests.support.local_project import write_files
from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.usefixtures("ansible_core")

HOST = "host2"

# Stages the content in the remote temporary directory ActionBase.run made (TRANSFERS_FILES), reads it back and
# asks who runs commands, stats the destination, then has the copy module put the staged file in place.
DEPLOY_PLUGIN = """
    from ansible.plugins.action import ActionBase


    class ActionModule(ActionBase):
        TRANSFERS_FILES = True
        _VALID_ARGS = frozenset(("content", "dest", "mode"))

        def run(self, tmp=None, task_vars=None):
            result = super().run(tmp, task_vars)
            args = self._task.args
            tmpdir = self._connection._shell.tmpdir
            staged = self._connection._shell.join_path(tmpdir, "source")
            self._transfer_data(staged, args["content"])
            self._fixup_perms2((tmpdir, staged), execute=False)
            seen = self._low_level_execute_command("cat %s; echo; id -un" % staged)
            before = self._execute_remote_stat(args["dest"], task_vars, follow=False)
            planned = self._get_diff_data(args["dest"], args["content"], task_vars, source_file=False)
            copied = self._execute_module("ansible.legacy.copy", task_vars=task_vars, module_args={
                "src": staged, "dest": args["dest"], "mode": args.get("mode"), "_original_basename": "source"})
            result.update(copied)
            result.update(staged_text=seen["stdout_lines"][0], ran_as=seen["stdout_lines"][-1],
                          existed_before=before["exists"], checksum_before=before["checksum"], tmpdir=tmpdir,
                          home=self._remote_expand_user("~"), planned=planned)
            return result
    """

PLAYBOOK = """
- hosts: {host}
  gather_facts: false
  tasks:
    - name: deploy in check mode
      deploy: {{content: "first\\n", dest: "{where}/app.conf"}}
      check_mode: true
    - name: deploy
      deploy: {{content: "first\\n", dest: "{where}/app.conf", mode: "0640"}}
    - name: deploy again
      deploy: {{content: "first\\n", dest: "{where}/app.conf", mode: "0640"}}
    - name: deploy a change with diff
      deploy: {{content: "second\\n", dest: "{where}/app.conf", mode: "0640"}}
      diff: true
    - name: deploy as deploy
      deploy: {{content: "theirs\\n", dest: "{where}/theirs.conf"}}
      become: true
      become_user: deploy
    - name: deploy a secret
      deploy: {{content: "s3cret-value\\n", dest: "{where}/secret.conf"}}
      no_log: true
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_files(tmp_path, {"action_plugins/deploy.py": DEPLOY_PLUGIN})
    return tmp_path


def test_an_action_plugin_sends_a_file_runs_commands_and_a_module_on_it(testenv: TestEnv, project: Path) -> None:
    where = fresh_dir("ansible-api-actions")
    out(testenv, HOST, f"mkdir -p {where} && chmod 0777 {where}")
    (project / "site.yml").write_text(PLAYBOOK.format(host=HOST, where=where))
    run = run_playbook(testenv.inventory_path, project / "site.yml")
    assert run.exit_code == 0, run.output

    checked = run.task("deploy in check mode")[HOST]
    assert checked["changed"] is True and checked["existed_before"] is False and checked["checksum_before"] == "1"
    assert checked["staged_text"] == "first" and checked["ran_as"] == "root" and checked["home"] == "/root"
    first = run.task("deploy")[HOST]
    assert first["changed"] is True and first["existed_before"] is False
    again = run.task("deploy again")[HOST]
    assert again["changed"] is False and again["existed_before"] is True
    assert again["checksum_before"] == again["checksum"]  # sha1 of the file, as ansible-core's stat gives it
    changed = run.task("deploy a change with diff")[HOST]
    assert changed["changed"] is True and "-first" in run.output and "+second" in run.output
    # ActionBase._get_diff_data peeks with the file module and reads the file with slurp
    assert changed["planned"] == {"before": "first\n", "before_header": f"{where}/app.conf",
                                  "after": "second\n", "after_header": "dynamically generated"}
    assert first["planned"]["before"] == ""
    assert out(testenv, HOST, f"stat -c '%a %U' {where}/app.conf && cat {where}/app.conf").split() == [
        "640", "root", "second"]

    # An unprivileged become user: ActionBase puts the temporary directory where that user can read it, and the
    # commands and the module run as that user.
    theirs = run.task("deploy as deploy")[HOST]
    assert theirs["ran_as"] == "deploy" and theirs["staged_text"] == "theirs" and theirs["home"] == "/home/deploy"
    assert out(testenv, HOST, f"stat -c %U {where}/theirs.conf") == "deploy"

    assert "s3cret-value" not in run.output
    assert "s3cret-value" not in str(run.report)
    assert out(testenv, HOST, f"cat {where}/secret.conf") == "s3cret-value"

    # ActionBase.cleanup, called as ansible-core's executor calls it, removed every temporary directory.
    for name in ("deploy in check mode", "deploy", "deploy as deploy"):
        tmpdir = run.task(name)[HOST]["tmpdir"]
        assert "ansible-tmp-" in tmpdir
        assert out(testenv, HOST, f"test -e {tmpdir} && echo left || echo gone") == "gone"


PATCH = """\
--- a/app.conf
+++ b/app.conf
@@ -1,2 +1,2 @@
 name: app
-level: 1
+level: 2
"""

PATCH_PLAYBOOK = """
- hosts: {host}
  gather_facts: false
  tasks:
    - name: patch in check mode
      ansible.posix.patch: {{src: level.patch, dest: "{where}/app.conf"}}
      check_mode: true
    - name: patch
      ansible.posix.patch: {{src: level.patch, dest: "{where}/app.conf"}}
    - name: patch again
      ansible.posix.patch: {{src: level.patch, dest: "{where}/app.conf"}}
"""


def test_a_collections_action_plugin_sends_its_file_and_runs_its_module(
        testenv: TestEnv, community_collections: Path, tmp_path: Path) -> None:
    """ansible.posix.patch: its action plugin finds the patch in files/, sends it to the temporary directory
    (TRANSFERS_FILES), fixes its permissions and runs the collection's module on it."""
    where = fresh_dir("ansible-api-patch")
    out(testenv, HOST, f"mkdir -p {where} && printf 'name: app\\nlevel: 1\\n' > {where}/app.conf")
    write_files(tmp_path, {"files/level.patch": PATCH})
    (tmp_path / "site.yml").write_text(PATCH_PLAYBOOK.format(host=HOST, where=where))
    run = run_playbook(testenv.inventory_path, tmp_path / "site.yml",
                       env={"ANSIBLE_COLLECTIONS_PATH": str(community_collections)})
    assert run.exit_code == 0, run.output
    assert run.task("patch in check mode")[HOST]["changed"] is True
    assert run.task("patch")[HOST]["changed"] is True
    assert run.task("patch again")[HOST]["changed"] is False
    assert out(testenv, HOST, f"cat {where}/app.conf").splitlines() == ["name: app", "level: 2"]
