"""Manage packages with dnf5 (Fedora 41+); on other hosts it fails as ansible-core's dnf5 does there."""

from modules._rpmtools import OPTIONS, SPEC_RULES, run_dnf5
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Manages packages with the dnf5 package manager",
    "description": [
        "Takes every argument of ansible-core's dnf5 module and checks it when the play compiles.",
        "Where Python's libdnf5 bindings are missing and dnf is not there to install them, it fails with "
        "ansible-core's message (the command it would have run, rc 2).",
        "Real dnf5 transactions need an RPM-based host, which this runner's test machines cannot run: on one the "
        "task fails saying so.",
    ],
    "options": dict(OPTIONS, auto_install_module_deps={
        "description": "Install python3-libdnf5 when it is missing.", "type": "bool", "default": True}),
}

EXAMPLES = """
- name: Install nginx on Fedora
  dnf5:
    name: nginx
    state: present
  when: ansible_facts.pkg_mgr == "dnf5"
"""

RETURN = {"msg": "What happened", "results": "Per-package results", "failures": "Packages that failed"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True
__all__ = ["SPEC_RULES"]


def run(module):
    run_dnf5(module)
