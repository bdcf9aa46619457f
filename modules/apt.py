"""Manage Debian packages with apt-get: install, upgrade, remove, purge, build dependencies, .deb files."""

from modules._apt import ARGUMENT_SPEC, SPEC_RULES, run_apt

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
    "options": {
        "name": {"description": "Package names, each optionally with a version: foo, foo=1.0, foo=1.0*.",
                 "type": "list", "elements": "str", "aliases": ["package", "pkg"]},
        "state": {"description": "present (installed), latest (installed at the candidate version), absent, "
                                 "build-dep (build dependencies installed), fixed (broken dependencies fixed).",
                  "type": "str", "default": "present",
                  "choices": ["absent", "build-dep", "latest", "present", "fixed"]},
        "update_cache": {"description": "Run apt-get update first (unless cache_valid_time says it is fresh).",
                         "type": "bool", "aliases": ["update-cache"]},
        "cache_valid_time": {"description": "Seconds the package lists stay fresh; implies update_cache.",
                             "type": "int", "default": 0},
        "update_cache_retries": {"description": "How often to try apt-get update.", "type": "int", "default": 5},
        "update_cache_retry_max_delay": {"description": "Longest pause between two tries, in seconds.",
                                         "type": "int", "default": 12},
        "deb": {"description": "Path of a .deb file on the host to install (with its dependencies).",
                "type": "path"},
        "purge": {"description": "With state absent, remove configuration files too.", "type": "bool",
                  "default": False},
        "autoremove": {"description": "Remove dependencies no longer needed.", "type": "bool", "default": False},
        "autoclean": {"description": "Remove package files that can no longer be downloaded.", "type": "bool",
                      "default": False},
        "upgrade": {"description": "yes/safe (apt-get upgrade --with-new-pkgs), full/dist (dist-upgrade), no.",
                    "type": "str", "default": "no"},
        "install_recommends": {"description": "Install recommended packages too (default: apt's setting).",
                               "type": "bool", "aliases": ["install-recommends"]},
        "default_release": {"description": "apt-get -t: the release to take packages from.", "type": "str"},
        "dpkg_options": {"description": "dpkg options, comma separated, each passed as --option.", "type": "str",
                         "default": "force-confdef,force-confold"},
        "force": {"description": "Allow unauthenticated packages, downgrades, held packages and removal of "
                                 "essential ones.", "type": "bool", "default": False},
        "allow_unauthenticated": {"description": "Allow unauthenticated packages.", "type": "bool",
                                  "default": False},
        "allow_downgrade": {"description": "Allow installing an older version.", "type": "bool", "default": False},
        "allow_change_held_packages": {"description": "Allow changing held packages.", "type": "bool",
                                       "default": False},
        "only_upgrade": {"description": "Only upgrade packages that are installed.", "type": "bool",
                         "default": False},
        "fail_on_autoremove": {"description": "Fail instead of removing packages an install would remove.",
                               "type": "bool", "default": False},
        "force_apt_get": {"description": "Accepted for compatibility: apt-get is always used.", "type": "bool",
                          "default": False},
        "lock_timeout": {"description": "Seconds to wait for the dpkg lock.", "type": "int", "default": 60},
    },
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
