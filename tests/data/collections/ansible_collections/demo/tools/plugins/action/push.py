"""An action plugin that runs ansible-core's own copy action through the shared plugin loader: it needs
ansible-core's executor."""

from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        copy = self._shared_loader_obj.action_loader.get("ansible.legacy.copy", task=self._task,
                                                         connection=self._connection, play_context=self._play_context,
                                                         loader=self._loader, templar=self._templar,
                                                         shared_loader_obj=self._shared_loader_obj)
        return copy.run(task_vars=task_vars)
