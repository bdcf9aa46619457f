"""Install, upgrade and remove packages with the host's own package manager (apt on Debian and Ubuntu)."""

from modules._apt import apt_params, run_apt
from modules._pkgmgr import binaries, detect_manager
from modules._rpmtools import run_dnf, run_dnf5

DOCUMENTATION = {
    "short_description": "Generic OS package manager",
    "description": [
        "Dispatches on the host itself: the agent looks for the package manager (what ansible_facts.pkg_mgr "
        "would name) and runs that module's logic with name and state, so the result, check mode and diff are "
        "the apt module's on Debian; dnf, dnf5 and yum run the dnf and dnf5 modules, which fail as "
        "ansible-core's do where their tools are missing.",
        "use names the manager explicitly (apt, dnf, dnf5, yum); any other is a clear failure.",
    ],
    "options": {
        "name": {"description": "Package names, with versions as the manager spells them (foo=1.0 for apt).",
                 "type": "list", "elements": "str", "required": True},
        "state": {"description": "present, latest or absent (installed/removed are accepted too).",
                  "type": "str", "required": True},
        "use": {"description": "The package manager: auto (detected on the host), apt, dnf, dnf5 or yum.",
                "type": "str", "default": "auto"},
    },
}

EXAMPLES = """
- name: Install ntpdate
  package:
    name: ntpdate
    state: present
"""

RETURN = {"cache_updated": "As apt returns it", "stdout": "The package manager's output",
          "diff": "The packages installed or removed"}

ARGUMENT_SPEC = {
    "name": {"type": "list", "elements": "str", "required": True},
    "state": {"type": "str", "required": True, "choices": ["absent", "installed", "latest", "present", "removed"]},
    "use": {"type": "str", "default": "auto"},
}
SUPPORTS_CHECK_MODE = True

# The managers this runner drives, as ansible-core's package action dispatches to their modules: dnf and dnf5
# (and yum, which ansible-core redirects to dnf) behave as those modules do on this host.
SUPPORTED = {
    "apt": lambda module, name, state: run_apt(module, apt_params({"name": name, "state": state})),
    "dnf": lambda module, name, state: run_dnf(module, "dnf"),
    "dnf5": lambda module, name, state: run_dnf5(module),
    "yum": lambda module, name, state: run_dnf(module, "auto"),
}


def run(module):
    params = module.params
    manager = params["use"]
    if manager == "auto":
        manager = detect_manager(module)
        if manager is None:
            module.fail("Could not detect which package manager to use: none of %s was found on the host"
                        % ", ".join(binaries()))
    handler = SUPPORTED.get(manager)
    if handler is None:
        module.fail("package manager '%s' is not supported (use: %s); supported: %s"
                    % (manager, params["use"], ", ".join(sorted(SUPPORTED))))
    result = handler(module, params["name"], params["state"])
    result["ansible_facts"] = {"pkg_mgr": manager}
    return result
