"""No module ships undocumented: each file in modules/ declares DOCUMENTATION (a short description and every
argument it accepts), EXAMPLES that compile as tasks using the module with valid arguments, and RETURN.

The examples go through the real compiler (a playbook whose tasks are the examples), so they are checked the
way a user's playbook would be: module names, free-form text, argument names and aliases.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from runner.compiler import CompileOptions, Compiler
from runner.errors import UserError
from runner.module_index import ModuleIndex, ModuleInfo

INDEX = ModuleIndex()
MODULES = INDEX.names()

# (check, module) pairs that do not pass yet, with why: marked as expected failures so the rest of the suite
# stays green while the module's owner fixes its documentation (then the entry goes).
# (check, module) -> why that module does not pass that check yet; empty: every module is documented.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


def _cases(check: str) -> list[object]:
    return [pytest.param(name, marks=pytest.mark.xfail(reason=KNOWN_GAPS[(check, name)]))
            if (check, name) in KNOWN_GAPS else name for name in MODULES]


def _documented_names(info: ModuleInfo) -> set[str]:
    return set((info.documentation.get("options") or {}).keys())


def _accepted_names(info: ModuleInfo) -> set[str]:
    """Every spelling the spec accepts; the free-form argument is documented as free_form, as in Ansible."""
    names = set()
    for name, option in info.argument_spec.items():
        names.add("free_form" if name == "_raw_params" else name)
        names.update(option.get("aliases", ()))
    return names


def _takes_any_arguments(info: ModuleInfo) -> bool:
    return bool(getattr(info.python, "ANY_ARGUMENTS", False))


@pytest.mark.parametrize("name", _cases("description"))
def test_documentation_describes_the_module(name: str) -> None:
    info = INDEX.get(name)
    doc = info.documentation
    assert isinstance(doc, dict) and str(doc.get("short_description") or "").strip(), \
        f"{name}: DOCUMENTATION needs a short_description"
    assert isinstance(doc.get("options", {}), dict), f"{name}: DOCUMENTATION options must be a mapping"
    for option, entry in (doc.get("options") or {}).items():
        assert str(entry.get("description") or "").strip(), f"{name}: option {option} has no description"
        assert entry.get("type"), f"{name}: option {option} has no type"
    assert isinstance(getattr(info.python, "RETURN", None), dict), f"{name}: RETURN must be a mapping"


@pytest.mark.parametrize("name", _cases("options"))
def test_documented_options_are_the_accepted_arguments(name: str) -> None:
    info = INDEX.get(name)
    if _takes_any_arguments(info):
        return  # set_fact and add_host take any name: their options describe the notable ones
    documented, accepted = _documented_names(info), _accepted_names(info)
    canonical = {"free_form" if n == "_raw_params" else n for n in info.argument_spec}
    assert not canonical - documented, f"{name}: arguments without documentation: {sorted(canonical - documented)}"
    assert not documented - accepted, f"{name}: documented options it does not accept: {sorted(documented - accepted)}"
    for option, entry in info.argument_spec.items():
        shown = (info.documentation["options"]).get("free_form" if option == "_raw_params" else option, {})
        for key in ("default", "choices", "required"):
            if key in entry and key in shown:
                assert entry[key] == shown[key], f"{name}: option {option} documents {key}={shown[key]!r}, " \
                                                 f"the spec has {entry[key]!r}"


@pytest.mark.parametrize("name", _cases("examples"))
def test_examples_compile_as_tasks_of_the_module(name: str, tmp_path: Path) -> None:
    info = INDEX.get(name)
    examples = textwrap.dedent(str(getattr(info.python, "EXAMPLES", "") or "")).strip("\n")
    assert examples.strip(), f"{name}: EXAMPLES is empty"
    playbook = tmp_path / "examples.yml"
    playbook.write_text("- hosts: localhost\n  gather_facts: false\n  tasks:\n"
                        + textwrap.indent(examples, "    ") + "\n")
    try:
        plan = Compiler(CompileOptions(precompile=False)).compile_playbooks([playbook])
    except UserError as exc:
        pytest.fail(f"{name}: EXAMPLES do not compile: {exc}")
    used = {INDEX.canonical(task.module or "") for task in plan.tasks if task.kind in ("task", "meta")}
    assert name in used, f"{name}: EXAMPLES never use the module (they use {sorted(used)})"
