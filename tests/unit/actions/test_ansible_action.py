"""A collection's action plugin that wraps its module's call runs on the controller, its module through the
host's agent; one that needs the rest of ansible-core's executor is refused when the playbook compiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.secrets.vault_format import encrypt
from tests.support.local_project import play_locally, write_files
from tests.support.playbook_run import run_playbook

pytestmark = pytest.mark.usefixtures("ansible_core")


def test_an_action_plugin_prepares_its_modules_call_in_check_mode_too(tmp_path: Path) -> None:
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: frob
              demo.tools.frob: {name: x}
            - name: frob in check mode
              demo.tools.frob: {name: y}
              check_mode: true
        """)
    assert run.exit_code == 0, run.output
    assert run.task("frob")["localhost"]["frobbed"] == "x-wrapped"
    checked = run.task("frob in check mode")["localhost"]
    assert checked["frobbed"] == "y-wrapped" and checked["check"] is True


def test_an_action_plugins_failure_and_its_argument_check_fail_the_host(tmp_path: Path) -> None:
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: refused
              demo.tools.frob: {name: refused}
              ignore_errors: true
            - name: bad option
              demo.tools.frob: {name: x, colour: red}
        """)
    assert run.exit_code == 2, run.output
    assert run.task("refused")["localhost"]["msg"] == "frob refuses that name"
    assert "Invalid options for demo.tools.frob: colour" in run.task("bad option")["localhost"]["msg"]


def test_a_plugin_building_ansible_cores_module_payload_is_a_compile_error_naming_why(tmp_path: Path) -> None:
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - demo.tools.push: {}
        """)
    assert run.exit_code == 4, run.output
    assert "site.yml:5:7" in run.output
    assert "action plugin" in run.output and "push.py" in run.output and "_configure_module" in run.output


def test_a_playbooks_action_plugins_folder_and_ansible_cores_own_action_under_another_name(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "action_plugins/shell_kind.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    result = super().run(tmp, task_vars)
                    result["shell"] = self._connection._shell.SHELL_FAMILY
                    return result
            """,
        "action_plugins/broken.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    raise Exception("boom")
            """,
        "action_plugins/say.py": "from ansible.plugins.action.debug import ActionModule\n",
    })
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: shell kind
              shell_kind:
            - name: shell kind named
              shell_kind:
              vars: {ansible_shell_type: "{{ 'power' + 'shell' }}"}
            - name: broken
              broken:
              ignore_errors: true
            - name: say
              say: {msg: hello}
        """)
    assert run.exit_code == 0, run.output
    assert run.task("shell kind")["localhost"]["shell"] == "sh"
    assert run.task("shell kind named")["localhost"]["shell"] == "powershell"
    assert run.task("broken")["localhost"]["msg"] == "Task failed: boom"  # ansible-core 2.19's words
    assert run.msg("say") == {"localhost": "hello"}


def test_an_action_plugins_result_that_cannot_travel_fails_the_task_instead_of_hanging(tmp_path: Path) -> None:
    write_files(tmp_path, {"action_plugins/unpicklable.py": """
        from ansible.plugins.action import ActionBase


        class CannotBePickled:
            def __getstate__(self):
                raise Exception("pickle intentionally not supported")


        class ActionModule(ActionBase):
            def run(self, tmp=None, task_vars=None):
                return {"obj": CannotBePickled()}
        """})
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: unpicklable
              unpicklable:
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert run.task("unpicklable")["localhost"]["msg"] == (
        "Task result omitted due to queue send failure: pickle intentionally not supported")


def test_an_action_plugin_hands_its_work_to_another_action_through_the_shared_loader(tmp_path: Path) -> None:
    write_files(tmp_path, {"action_plugins/shell_then_copy.py": """
        from ansible.plugins.action import ActionBase


        class ActionModule(ActionBase):
            def run(self, tmp=None, task_vars=None):
                loaders = self._shared_loader_obj
                self._task.args = {"_raw_params": "echo " + self._task.args["word"]}
                shell = loaders.action_loader.get("ansible.legacy.shell", task=self._task,
                                                  connection=self._connection, play_context=self._play_context,
                                                  loader=self._loader, templar=self._templar,
                                                  shared_loader_obj=loaders)
                said = shell.run(task_vars=task_vars)
                self._task.args = {"content": said["stdout"] + "\\n", "dest": task_vars["where"]}
                copied = loaders.action_loader.get("ansible.legacy.copy", task=self._task).run(task_vars=task_vars)
                return {"said": said["stdout"], "changed": copied["changed"],
                        "lookup_found": loaders.lookup_loader.has_plugin("ansible.builtin.env")}
        """})
    where = tmp_path / "said.txt"
    run = play_locally(tmp_path, f"""
        - hosts: localhost
          gather_facts: false
          vars: {{where: "{where}"}}
          tasks:
            - name: predicted
              shell_then_copy: {{word: hello}}
              check_mode: true
            - name: said
              shell_then_copy: {{word: hello}}
        """)
    assert run.exit_code == 0, run.output
    predicted = run.task("predicted")["localhost"]
    # check mode reaches the actions it hands work to: the command is not run
    assert predicted["said"] == "" and predicted["changed"] is True
    said = run.task("said")["localhost"]
    assert said["said"] == "hello" and said["changed"] is True and said["lookup_found"] is True
    assert where.read_text() == "hello\n"


def test_a_collections_action_plugin_without_a_module_by_its_short_name_and_one_built_on_it(tmp_path: Path) -> None:
    collections = tmp_path / "collections"
    write_files(collections / "ansible_collections" / "demo" / "echoes", {
        "galaxy.yml": "namespace: demo\nname: echoes\nversion: 1.0.0\nreadme: README.md\nauthors: [demo]\n",
        "plugins/action/echo_args.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    return {"echoed": dict(self._task.args)}
            """,
        "plugins/action/echo_again.py": """
            from .echo_args import ActionModule as EchoArgs


            class ActionModule(EchoArgs):
                pass
            """,
    })
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          collections: [demo.echoes]
          tasks:
            - name: short
              echo_args: {word: hi}
            - name: built on another plugin of the collection
              demo.echoes.echo_again: {word: again}
        """, collections=collections)
    assert run.exit_code == 0, run.output
    assert run.task("short")["localhost"]["echoed"] == {"word": "hi"}
    assert run.task("built on another plugin of the collection")["localhost"]["echoed"] == {"word": "again"}


def test_an_action_plugins_command_on_a_host_it_cannot_reach_makes_the_host_unreachable(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "action_plugins/whoami.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    return {"me": self._low_level_execute_command("id -un")["stdout"]}
            """,
        "inventory.ini": "ghost ansible_host=127.0.0.99 ansible_port=1 ansible_connection=ssh "
                         "ansible_ssh_retries=0\n",
        "site.yml": """
            - hosts: ghost
              gather_facts: false
              tasks:
                - name: who
                  whoami:
            """,
    })
    run = run_playbook(tmp_path / "inventory.ini", tmp_path / "site.yml")
    assert run.exit_code == 4, run.output
    assert run.task("who")["ghost"]["unreachable"] is True


def test_an_action_plugins_file_helpers_over_the_local_connection(tmp_path: Path) -> None:
    write_files(tmp_path, {"action_plugins/round_trip.py": """
        import os
        import tempfile

        from ansible.plugins.action import ActionBase


        class ActionModule(ActionBase):
            TRANSFERS_FILES = True

            def run(self, tmp=None, task_vars=None):
                result = super().run(tmp, task_vars)
                shell = self._connection._shell
                sent = self._transfer_data(shell.join_path(shell.tmpdir, "data"), "round trip")
                self._remote_chmod([sent], "0640")
                mode = self._low_level_execute_command("stat -c %a " + sent)["stdout"].strip()
                local = tempfile.mkdtemp()
                self._connection.fetch_file(sent, os.path.join(local, "back"))
                with open(os.path.join(local, "back")) as handle:
                    back = handle.read()
                result.update(mode=mode, back=back, exists=self._remote_file_exists(sent),
                              missing=self._remote_file_exists(sent + ".nothing"), tmpdir=shell.tmpdir)
                return result
        """})
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: round trip
              round_trip:
        """)
    assert run.exit_code == 0, run.output
    result = run.task("round trip")["localhost"]
    assert (result["mode"], result["back"], result["exists"], result["missing"]) == ("640", "round trip", True, False)
    assert not Path(result["tmpdir"]).exists()


def test_an_action_plugin_reads_a_vaulted_file_decrypted_and_the_plaintext_copy_is_removed(tmp_path: Path) -> None:
    write_files(tmp_path, {"pass": "pw\n", "action_plugins/send_secret.py": """
        import os

        from ansible.plugins.action import ActionBase


        class ActionModule(ActionBase):
            TRANSFERS_FILES = True

            def run(self, tmp=None, task_vars=None):
                result = super().run(tmp, task_vars)
                source = self._loader.get_real_file(self._find_needle("files", self._task.args["src"]))
                staged = self._connection._shell.join_path(self._connection._shell.tmpdir, "secret")
                self._transfer_file(source, staged)
                result.update(self._execute_module("ansible.legacy.copy", task_vars=task_vars,
                                                   module_args={"src": staged, "dest": self._task.args["dest"]}))
                result["plaintext_copy"] = source
                return result
        """})
    (tmp_path / "files").mkdir()
    (tmp_path / "files" / "secret.txt").write_bytes(encrypt(b"s3cret\n", b"pw"))
    dest = tmp_path / "out.txt"
    run = play_locally(tmp_path, f"""
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: send
              send_secret: {{src: secret.txt, dest: "{dest}"}}
        """, "--vault-password-file", str(tmp_path / "pass"))
    assert run.exit_code == 0, run.output
    assert dest.read_text() == "s3cret\n"
    plaintext_copy = run.task("send")["localhost"]["plaintext_copy"]
    assert plaintext_copy != str(tmp_path / "files" / "secret.txt") and not Path(plaintext_copy).exists()


def test_an_action_plugin_starting_its_module_in_the_background_fails_naming_why(tmp_path: Path) -> None:
    write_files(tmp_path, {"action_plugins/later.py": """
        from ansible.plugins.action import ActionBase


        class ActionModule(ActionBase):
            def run(self, tmp=None, task_vars=None):
                return self._execute_module("ansible.legacy.ping", {}, task_vars=task_vars, wrap_async=True)
        """})
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: later
              later:
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    message = run.task("later")["localhost"]["msg"]
    assert "later.py starts the module ansible.legacy.ping in the background (wrap_async)" in message


def test_an_async_task_of_an_action_plugin_waits_for_its_job_and_one_naming_no_job_fails(tmp_path: Path) -> None:
    write_files(tmp_path, {
        "action_plugins/later.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                _supports_async = True

                def run(self, tmp=None, task_vars=None):
                    return self._execute_module("ansible.legacy.ping", {}, task_vars=task_vars,
                                                wrap_async=self._task.async_val)
            """,
        "action_plugins/no_jid.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                _supports_async = True

                def run(self, tmp=None, task_vars=None):
                    return {}
            """,
        "action_plugins/sync_only.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    return super().run(tmp, task_vars)
            """})
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: later
              later:
              async: 10
              poll: 1
            - name: no job
              no_jid:
              async: 10
              poll: 1
              ignore_errors: true
            - name: sync only
              sync_only:
              async: 10
              poll: 1
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    later = run.task("later")["localhost"]
    assert later["ping"] == "pong" and later["finished"] and later["ansible_job_id"].startswith("j")
    assert run.task("no job")["localhost"]["msg"] == "No job id was returned by the async task"
    # ActionBase refuses async for a plugin that does not support it, now that it is told the task's async
    assert run.task("sync only")["localhost"]["msg"] == "This action (sync_only) does not support async."


def test_an_attribute_the_connection_stand_in_lacks_gives_getattrs_default_and_used_fails_naming_it(
        tmp_path: Path) -> None:
    write_files(tmp_path, {"action_plugins/probe.py": """
        from ansible.plugins.action import ActionBase


        class ActionModule(ActionBase):
            def run(self, tmp=None, task_vars=None):
                if self._task.args.get("use"):
                    return {"id": self._connection.connection_id}
                return {"default": getattr(self._connection, "connection_id", "none")}
        """})
    run = play_locally(tmp_path, """
        - hosts: localhost
          gather_facts: false
          tasks:
            - name: probe
              probe:
            - name: use
              probe: {use: true}
              ignore_errors: true
        """)
    assert run.exit_code == 0, run.output
    assert run.task("probe")["localhost"]["default"] == "none"
    assert "uses the connection's connection_id" in run.task("use")["localhost"]["msg"]


def test_the_temporary_directory_an_action_plugin_made_is_its_modules(tmp_path: Path) -> None:
    """``_ansible_tmpdir`` is the plugin's ``_make_tmp_path`` directory, as ansible-core passes it; a plugin that
    made none leaves the module to make its own under the task's ``ansible_remote_tmp``."""
    write_files(tmp_path, {
        "library/report_tmp.py": """
            from ansible.module_utils.basic import AnsibleModule

            module = AnsibleModule(argument_spec={})
            module.exit_json(given=module._tmpdir, tmpdir=module.tmpdir, remote_tmp=module._remote_tmp)
            """,
        "action_plugins/tmp_made.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                TRANSFERS_FILES = True

                def run(self, tmp=None, task_vars=None):
                    result = super().run(tmp, task_vars)
                    result.update(self._execute_module("report_tmp", {}, task_vars=task_vars),
                                  made=self._connection._shell.tmpdir)
                    return result
            """,
        "action_plugins/tmp_none.py": """
            from ansible.plugins.action import ActionBase


            class ActionModule(ActionBase):
                def run(self, tmp=None, task_vars=None):
                    result = super().run(tmp, task_vars)
                    result.update(self._execute_module("report_tmp", {}, task_vars=task_vars))
                    return result
            """,
    })
    remote_tmp = tmp_path / "remote tmp"
    run = play_locally(tmp_path, f"""
        - hosts: localhost
          gather_facts: false
          vars: {{ansible_remote_tmp: "{remote_tmp}"}}
          tasks:
            - name: with
              tmp_made:
            - name: without
              tmp_none:
        """)
    assert run.exit_code == 0, run.output
    made = run.task("with")["localhost"]
    assert made["made"].startswith(f"{remote_tmp}/ansible-tmp-") and made["given"] == made["tmpdir"] == made["made"]
    own = run.task("without")["localhost"]
    assert own["given"] is None and own["remote_tmp"] == str(remote_tmp)
    assert own["tmpdir"].startswith(f"{remote_tmp}/ansible-moduletmp-")
    assert list(remote_tmp.iterdir()) == []  # each removed: the plugin's by its cleanup, the module's when it ended
