"""Manage packages with dnf (RPM-based hosts); on other hosts it fails as ansible-core's dnf does there."""

from modules._rpmtools import OPTIONS, SPEC_RULES, run_dnf
from modules._spec import argument_spec

DOCUMENTATION = {
    "short_description": "Manages packages with the dnf package manager",
    "description": [
        "Takes every argument of ansible-core's dnf module and checks it when the play compiles, so roles that "
        "branch on the OS family load everywhere.",
        "use_backend auto (and yum) picks dnf or dnf5 by the host's package manager, as ansible-core picks it by "
        "ansible_facts.pkg_mgr; on a host with neither it fails with ansible-core's message. Where Python's dnf "
        "bindings are missing it fails with ansible-core's message too.",
        "Real dnf transactions need an RPM-based host, which this runner's test machines cannot run: on one the "
        "task fails saying so.",
    ],
    "options": dict(OPTIONS, use_backend={"description": "auto, dnf (dnf4, yum4), dnf5, or yum (as auto).",
                                          "type": "str", "default": "auto",
                                          "choices": ["auto", "dnf", "yum", "yum4", "dnf4", "dnf5"]}),
}

EXAMPLES = """
- name: Install httpd on Red Hat hosts
  dnf:
    name: httpd
    state: latest
  when: ansible_facts.os_family == "RedHat"
"""

RETURN = {"msg": "What happened", "results": "Per-package results", "rc": "dnf's exit status"}

ARGUMENT_SPEC = argument_spec(DOCUMENTATION["options"])
SUPPORTS_CHECK_MODE = True
__all__ = ["SPEC_RULES"]


def run(module):
    backend = module.params["use_backend"]
    run_dnf(module, {"dnf4": "dnf", "yum4": "dnf"}.get(backend, backend))
