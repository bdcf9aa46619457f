"""plugin_filters_cfg (runner/cli/plugin_filters.py): the modules a filter file rejects cannot be found, as
ansible-core's plugin loader filters them; bad files are ansible-core's warnings; rejecting stat stops the run."""

from __future__ import annotations

from pathlib import Path

import pytest

from runner.cli.plugin_filters import module_rejectlist
from runner.config import load_config
from runner.errors import OptionError
from runner.module_index import ModuleIndex


def _rejected(tmp_path: Path, text: str | None) -> tuple[frozenset[str], list[str]]:
    filters = tmp_path / "filters.yml"
    if text is not None:
        filters.write_text(text, encoding="utf-8")
    (tmp_path / "ansible.cfg").write_text(f"[defaults]\nplugin_filters_cfg = {filters}\n", encoding="utf-8")
    config = load_config(env={"HOME": str(tmp_path)}, cwd=tmp_path)
    warnings: list[str] = []
    return module_rejectlist(config, warnings.append), warnings


def test_the_rejectlist_of_a_version_1_file(tmp_path: Path) -> None:
    assert _rejected(tmp_path, "filter_version: 1.0\nmodule_rejectlist: [copy, pause]\n") == (
        frozenset({"copy", "pause"}), [])


@pytest.mark.parametrize(("text", "warning"), [
    (None, "does not exist. Skipping."),
    ("module_rejectlist: [copy]\n", "was invalid. Skipping."),
    ("filter_version: '2.0'\nmodule_rejectlist: [copy]\n", "was a version not recognized"),
    ("filter_version: 1.0\nmodule_rejectlist:\n", "as module_rejectlist is not a list. Skipping."),
    ("filter_version: [1.0\n", "was not parsable. Skipping"),
])
def test_a_file_ansible_core_cannot_use_is_a_warning_and_filters_nothing(tmp_path: Path, text: str | None,
                                                                          warning: str) -> None:
    rejected, warnings = _rejected(tmp_path, text)
    assert rejected == frozenset()
    assert len(warnings) == 1 and warning in warnings[0] and str(tmp_path / "filters.yml") in warnings[0]


def test_rejecting_stat_is_an_error_in_ansible_cores_words(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"The stat module was specified in the module reject list file, .*"
                                          r"filters\.yml, but Ansible will not function without the stat module"):
        _rejected(tmp_path, "filter_version: '1.0'\nmodule_rejectlist: [stat]\n")


def test_a_rejected_module_is_found_by_no_short_name() -> None:
    index = ModuleIndex(rejected={"copy", "ping"})
    assert index.find("copy") is None and index.find("ansible.builtin.copy") is None
    assert index.find("ansible.legacy.ping") is None
    assert index.find("file") is not None
