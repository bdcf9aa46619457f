"""Install, upgrade and remove packages with the host's own package manager (apt on Debian and Ubuntu)."""

from modules._apt import apt_params, run_apt

DOCUMENTATION = {
    "short_description": "Generic OS package manager",
    "description": [
        "Dispatches on the host itself: the agent looks for the package manager (apt-get) and runs the apt "
        "module's logic with name and state, so the result, check mode and diff are the apt module's.",
        "use names the manager explicitly; only apt is supported, any other is a clear failure.",
    ],
    "options": {
        "name": {"description": "Package names, with versions as the manager spells them (foo=1.0 for apt).",
                 "type": "list", "elements": "str", "required": True},
        "state": {"description": "present, latest or absent (installed/removed are accepted too).",
                  "type": "str", "required": True},
        "use": {"description": "The package manager: auto (detected on the host) or apt.", "type": "str",
                "default": "auto"},
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

# Package managers by the binary that marks them; the first found on the host is used.
MANAGERS = (("apt", "apt-get"), ("dnf", "dnf"), ("yum", "yum"), ("zypper", "zypper"), ("apk", "apk"),
            ("pacman", "pacman"))
SUPPORTED = {"apt": lambda module, name, state: run_apt(module, apt_params({"name": name, "state": state}))}


def detect_manager(module):
    for manager, binary in MANAGERS:
        if module.get_bin_path(binary):
            return manager
    return None


def run(module):
    params = module.params
    manager = params["use"]
    if manager == "auto":
        manager = detect_manager(module)
        if manager is None:
            module.fail("Could not detect which package manager to use: none of %s was found on the host"
                        % ", ".join(binary for _, binary in MANAGERS))
    handler = SUPPORTED.get(manager)
    if handler is None:
        module.fail("package manager '%s' is not supported (use: %s); supported: %s"
                    % (manager, params["use"], ", ".join(sorted(SUPPORTED))))
    result = handler(module, params["name"], params["state"])
    result["ansible_facts"] = {"pkg_mgr": manager}
    return result
