"""Which package manager a host has: what ansible_facts.pkg_mgr names, found on the host itself."""

# Package managers by the binary that marks them, in the order they are tried; the first found is the host's.
MANAGERS = (("apt", "apt-get"), ("dnf5", "dnf5"), ("dnf", "dnf"), ("yum", "yum"), ("zypper", "zypper"),
            ("apk", "apk"), ("pacman", "pacman"))


def detect_manager(module):
    """The host's package manager (apt, dnf, dnf5, yum, ...), or None when none of them is there."""
    for manager, binary in MANAGERS:
        if module.get_bin_path(binary):
            return manager
    return None


def binaries():
    return [binary for _, binary in MANAGERS]
