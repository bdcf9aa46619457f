"""The names facts are kept under: a module's ``ansible_``-prefixed names without the prefix, as Ansible keeps
them under ``ansible_facts`` (``ansible_local`` keeps it)."""

from __future__ import annotations

from runner.vars.magic import namespaced_facts


def test_prefix_is_dropped_but_for_local_facts() -> None:
    reported = {"ansible_distribution": "Debian", "ansible_local": {"app": {}}, "packages": {},
                "module_setup": True}
    assert namespaced_facts(reported) == {"distribution": "Debian", "ansible_local": {"app": {}}, "packages": {},
                                          "module_setup": True}
