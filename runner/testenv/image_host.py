"""What a golden image's layer holds for the hosts started from it: tokens for the build server's name and
address in its text files, and a manifest of those files and of the services it enabled at boot.

The provider writes them at capture (``runner.providers.local_identity``); a host renders them when it starts:
its /etc/hosts here (``hosts_from_layers``), the other files and the services in its init
(``runner/testenv/init.py``, which reads the manifest's path from its own copy of ``IMAGE_HOST_MANIFEST``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

IMAGE_HOST_MANIFEST = "etc/provisioning/image-host.json"
HOSTNAME_TOKEN = "@@PROVISIONING_HOSTNAME@@"
ADDRESS_TOKEN = "@@PROVISIONING_ADDRESS@@"


def render(text: str, name: str, address: str) -> str:
    return text.replace(HOSTNAME_TOKEN, name).replace(ADDRESS_TOKEN, address)


def hosts_from_layers(own: str, lowers: Sequence[Path], name: str, address: str) -> str:
    """A host's /etc/hosts: its own lines, then the lines the topmost image layer's /etc/hosts adds to them (what
    the image's roles wrote there, rendered for this host). Every host writes its own /etc/hosts, which would
    otherwise hide the image's."""
    for lower in lowers:
        image_hosts = lower / "etc" / "hosts"
        if image_hosts.is_file():
            lines = own.splitlines()
            added = [line for line in render(image_hosts.read_text(), name, address).splitlines()
                     if line not in lines]
            return own + "".join(f"{line}\n" for line in added)
    return own
