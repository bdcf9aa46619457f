"""An action plugin that moves a file itself: it needs ansible-core's executor."""

from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        self._transfer_file("here", "there")
        return {}
