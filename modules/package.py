"""Install, upgrade and remove packages with the host's own package manager (apt on Debian and Ubuntu)."""

from modules._apt import ARGUMENT_SPEC as APT_SPEC
from modules._apt import SPEC_RULES as APT_RULES
from modules._apt import run_apt
from modules._pkgmgr import binaries, detect_manager
from modules._rpmtools import OPTIONS as DNF_OPTIONS
from modules._rpmtools import SPEC_RULES as DNF_RULES
from modules._rpmtools import run_dnf, run_dnf5
from modules._spec import argument_spec
from modules._utils import validate_arguments

DOCUMENTATION = {
    "short_description": "Generic OS package manager",
    "description": [
        "Dispatches on the host itself: the agent looks for the package manager (what ansible_facts.pkg_mgr "
        "would name) and runs that module's logic with name and state, so the result, check mode and diff are "
        "the apt module's on Debian; dnf, dnf5 and yum run the dnf and dnf5 modules, which fail as "
        "ansible-core's do where their tools are missing.",
        "use names the manager explicitly (apt, dnf, dnf5, yum); any other is a clear failure. Without it, the "
        "variable ansible_package_use names it, as in ansible-core.",
        "The chosen manager's module_defaults apply under the task's arguments, as ansible-core's package action "
        "applies them (the host's pkg_mgr fact chooses when neither use nor ansible_package_use does).",
        "Every other argument goes to the manager's module as it is and is checked there, as ansible-core's "
        "package action passes it on: update_cache works on Debian, enablerepo fails there with apt's message.",
    ],
    "options": {
        "name": {"description": "Package names, with versions as the manager spells them (foo=1.0 for apt).",
                 "type": "list", "elements": "str", "required": True},
        "state": {"description": "present, latest or absent (installed/removed are accepted too); without it, "
                                 "present, the package managers' default (Ansible's package passes the task on "
                                 "as it is, whatever its documentation says).", "type": "str"},
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

# Only package's own arguments are named: the others belong to the manager's module (checked in run()).
ANY_ARGUMENTS = True
OWN_SPEC = {
    "name": {"type": "list", "elements": "str", "required": True},
    "state": {"type": "str", "choices": ["absent", "installed", "latest", "present", "removed"]},
    "use": {"type": "str", "default": "auto"},
}
ARGUMENT_SPEC = {}  # type: dict
SUPPORTS_CHECK_MODE = True
DNF_SPEC = argument_spec(DNF_OPTIONS)

# The managers this runner drives, as ansible-core's package action dispatches to their modules: dnf and dnf5
# (and yum, which ansible-core redirects to dnf) behave as those modules do on this host.
SUPPORTED = {
    "apt": lambda module, params: run_apt(module, validate_arguments(APT_SPEC, params, APT_RULES, module="apt")),
    "dnf": lambda module, params: run_dnf(_as_dnf(module, params), "dnf"),
    "dnf5": lambda module, params: run_dnf5(_as_dnf(module, params)),
    "yum": lambda module, params: run_dnf(_as_dnf(module, params), "auto"),
}
# As ansible-core's package action, the controller names the manager's module (``use``, else the variable
# ansible_package_use, else the host's pkg_mgr fact) and gives the task that module's module_defaults under its own.
CHOSEN_BY_VARIABLE = "ansible_package_use"
CHOSEN_BY_FACT = "pkg_mgr"
CHOSEN_FROM = tuple(SUPPORTED)
# ansible-core's words for a manager that names no module
UNKNOWN_CHOICE = 'Could not find a matching action for the "{}" package manager.'


def _as_dnf(module, params):
    module.params = validate_arguments(DNF_SPEC, params, DNF_RULES, module="dnf")
    return module


def run(module):
    given = module.params
    params = validate_arguments(OWN_SPEC, {key: value for key, value in given.items() if key in OWN_SPEC},
                                module="package")
    passed_on = {key: value for key, value in given.items() if key not in OWN_SPEC}
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
    # Without state the package manager module's default applies (present for each), as Ansible's package
    # action hands the arguments on as given: its documentation says required, its behaviour does not.
    result = handler(module, {"name": params["name"], "state": params["state"] or "present", **passed_on})
    result["ansible_facts"] = {"pkg_mgr": manager}
    return result
