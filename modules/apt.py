"""Manage Debian packages with apt-get: install, upgrade, remove, purge, build dependencies, .deb files."""

from modules._apt import ARGUMENT_SPEC, OPTIONS, SPEC_RULES, run_apt

DOCUMENTATION = {
    "short_description": "Manages apt packages",
    "description": [
        "Installs, upgrades and removes packages with apt-get. Every change is first simulated with apt-get -s, "
        "so check mode reports exactly what a real run would install or remove, and the diff lists it.",
        "An existing configuration file is kept on install (dpkg_options defaults to force-confdef,force-confold), "
        "so a role may write a service's configuration before it installs the service.",
        "update_cache with cache_valid_time leaves the package lists alone, and reports no change, while they are "
        "younger than cache_valid_time seconds.",
        "apt-get is always used (force_apt_get is accepted and changes nothing); aptitude is never needed.",
    ],
    "options": OPTIONS,
}

EXAMPLES = """
- name: Install nginx, refreshing the package lists at most once an hour
  apt:
    name: nginx
    update_cache: true
    cache_valid_time: 3600

- name: Install a version
  apt:
    name: ["hello=2.10*", "sl"]

- name: Remove a package and its configuration
  apt:
    name: sl
    state: absent
    purge: true

- name: Install a package file that was copied to the host
  apt:
    deb: /tmp/app_1.0_amd64.deb
"""

RETURN = {
    "cache_updated": "Whether the package lists were updated",
    "cache_update_time": "When the package lists were last updated (seconds since the epoch)",
    "stdout": "apt-get's output (the simulation's in check mode or when nothing changed)",
    "stderr": "apt-get's error output",
    "diff": "before/after lists of the packages changed; prepared: what was installed, upgraded, removed",
}

SUPPORTS_CHECK_MODE = True
__all__ = ["ARGUMENT_SPEC", "SPEC_RULES", "run"]


def run(module):
    return run_apt(module, module.params)
