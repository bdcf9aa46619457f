"""An action plugin that only prepares its module's call, as most collections' are."""

from ansible.errors import AnsibleActionFail
from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    _VALID_ARGS = frozenset(("name",))

    def run(self, tmp=None, task_vars=None):
        result = super().run(tmp, task_vars)
        name = self._task.args["name"]
        if name == "refused":
            raise AnsibleActionFail("frob refuses that name")
        result.update(self._execute_module(module_name="demo.tools.frob", module_args={"name": name + "-wrapped"},
                                           task_vars=task_vars))
        self._remove_tmp_path(self._connection._shell.tmpdir)
        return result
