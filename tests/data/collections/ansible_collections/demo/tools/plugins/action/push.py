"""An action plugin that builds ansible-core's module payload itself: it needs ansible-core's executor."""

from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):
    def run(self, tmp=None, task_vars=None):
        module_bits, _module_path = self._configure_module("ansible.legacy.ping", {}, task_vars)
        return {"size": len(module_bits.b_module_data)}
