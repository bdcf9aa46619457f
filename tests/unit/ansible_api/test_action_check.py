"""Which action plugins run behind the stand-in for ActionBase: read from their source."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.ansible_api.action_check import action_plugin_problem, supports_raw_params

HEADER = "from ansible.plugins.action import ActionBase\n"


@pytest.mark.parametrize(("body", "problem"), [
    ("class ActionModule(ActionBase):\n    def run(self, tmp=None, task_vars=None):\n"
     "        return self._execute_module(task_vars=task_vars)\n", None),
    ("class ActionModule(ActionBase):\n    TRANSFERS_FILES = True\n", None),
    ("class ActionModule(ActionBase):\n    def run(self, tmp=None, task_vars=None):\n"
     "        self._make_tmp_path()\n        self._transfer_data('/tmp/x', 'data')\n"
     "        self._low_level_execute_command('id')\n        self._execute_remote_stat('/tmp/x', {}, False)\n",
     None),
    ("class ActionModule(ActionBase):\n    BYPASS_HOST_LOOP = True\n", "runs once for all hosts"),
    ("class ActionModule(ActionBase):\n    def run(self, tmp=None, task_vars=None):\n"
     "        self._configure_module('ping', {}, task_vars)\n", "_configure_module"),
    ("class ActionModule(ActionBase):\n    def run(self, tmp=None, task_vars=None):\n"
     "        self._shared_loader_obj.action_loader.get('copy')\n", None),
    ("from ansible.plugins.action.template import ActionModule as Template\n"
     "class ActionModule(Template):\n    pass\n", "builds on Template"),
    ("class Other(ActionBase):\n    pass\n", "no ActionModule class"),
    ("from .echo import ActionModule as Echo\nclass ActionModule(Echo):\n    pass\n", None),
    ("from ansible_collections.demo.tools.plugins.action.frob import ActionModule as Frob\n"
     "class ActionModule(Frob):\n    pass\n", None),
    ("from ansible.plugins.action.normal import ActionModule as Normal\nclass ActionModule(Normal):\n    pass\n",
     None),
    ("class Shared(ActionBase):\n    pass\nclass ActionModule(Shared):\n    pass\n", None),
    ("from ansible.plugins.action.copy import ActionModule as Copy\nclass Shared(Copy):\n    pass\n"
     "class ActionModule(Shared):\n    pass\n", "builds on Copy"),
    ("class ActionModule:\n    pass\n", "no base class"),
    ("class ActionModule(ActionBase:\n", "does not parse"),
])
def test_what_a_plugin_uses_decides_whether_it_runs(tmp_path: Path, body: str, problem: str | None) -> None:
    path = tmp_path / "plugin.py"
    path.write_text(HEADER + body)
    found = action_plugin_problem(path)
    assert found is None if problem is None else problem in (found or "")


@pytest.mark.parametrize(("flag", "expected"), [("supports_raw_params = True", True),
                                                ("supports_raw_params = False", False), ("pass", False)])
def test_a_plugin_takes_free_form_words_when_its_class_says_so(tmp_path: Path, flag: str, expected: bool) -> None:
    plugin = tmp_path / f"raw_{expected}_{len(flag)}.py"
    plugin.write_text("from ansible.plugins.action import ActionBase\n\n\nclass ActionModule(ActionBase):\n"
                      f"    {flag}\n")
    assert supports_raw_params(plugin) is expected


def test_a_plugin_built_on_a_collections_action_plugin_runs_when_that_one_does(tmp_path: Path) -> None:
    actions = tmp_path / "ansible_collections" / "demo" / "tools" / "plugins" / "action"
    actions.mkdir(parents=True)
    (actions / "wrap.py").write_text(HEADER + "class ActionModule(ActionBase):\n    pass\n")
    (actions / "everyone.py").write_text(HEADER + "class ActionModule(ActionBase):\n    BYPASS_HOST_LOOP = True\n")
    (actions / "loop.py").write_text(
        "from ansible_collections.demo.tools.plugins.action.loop import ActionModule as B\n"
        "class ActionModule(B):\n    pass\n")
    plugin = tmp_path / "plugin.py"
    for base, problem in [("wrap", None), ("everyone", "runs once for all hosts"), ("loop", "builds on")]:
        plugin.write_text(f"from ansible_collections.demo.tools.plugins.action.{base} import ActionModule as Base\n"
                          "class ActionModule(Base):\n    pass\n")
        found = action_plugin_problem(plugin, [tmp_path])
        assert found is None if problem is None else problem in (found or ""), (base, found)
