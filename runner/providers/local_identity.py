"""A golden image's host-specific content, made a template at capture and rendered by each server at boot.

The taskservs' roles write the build server's name and address into their configuration (a server block
listening on the address, ``listen_addresses``, ``/etc/hosts``, the motd, an index page naming the host). At
capture those two values are replaced in the layer's text files by tokens, and the files are listed in a
manifest in the layer (``IMAGE_HOST_MANIFEST``), with the services running on the build server when it was
captured whose configuration the image holds (nginx, postgresql: what its roles started). A server started from
the layer renders the tokens with its own name and address and starts those services before its sshd answers
(``runner.testenv.init``), as a machine booted from an image would: its roles find their files as they would
write them and their daemons running, and report ``ok``.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from runner.testenv.image_host import ADDRESS_TOKEN, HOSTNAME_TOKEN, IMAGE_HOST_MANIFEST

# History and package state: their mentions of the build server are what happened there, not configuration.
SKIPPED = ("var/log/", "var/cache/", "var/lib/dpkg/", "var/lib/apt/", "usr/", "tmp/", "run/")
TEXT_SIZE_LIMIT = 1 << 20
# An init script reported running: "[ + ]  nginx" (service --status-all).
_RUNNING = re.compile(r"^\s*\[ \+ \]\s+(\S+)\s*$", re.MULTILINE)
STATUS_TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class BuildIdentity:
    """The build server as its image must not keep it: its name and address, and the services it ran."""

    hostname: str
    address: str
    running: list[str] = field(default_factory=list)


def running_services(pid: int) -> list[str]:
    """The init scripts that report running on the local server whose init is ``pid`` (none when it cannot be
    asked)."""
    try:
        done = subprocess.run(["nsenter", "-t", str(pid), "-m", "-p", "--", "service", "--status-all"],
                              capture_output=True, text=True, timeout=STATUS_TIMEOUT_SECONDS, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return _RUNNING.findall(done.stdout)


def templatize(layer: Path, identity: BuildIdentity) -> list[str]:
    """Replace the build server's name and address in the layer's text files by tokens; write the manifest
    (those files, and the running services the layer holds configuration of) and return its file list (paths
    relative to the layer)."""
    hostname, address = identity.hostname, identity.address
    patterns = [(re.compile(rf"(?<![\w.-]){re.escape(hostname)}(?![\w-])".encode()), HOSTNAME_TOKEN.encode()),
                (re.compile(rf"(?<![\d.]){re.escape(address)}(?!\d)".encode()), ADDRESS_TOKEN.encode())]
    files: list[str] = []
    for path in sorted(layer.rglob("*")):
        relative = path.relative_to(layer).as_posix()
        if relative.startswith(SKIPPED) or path.is_symlink() or not path.is_file():
            continue
        if path.stat().st_size > TEXT_SIZE_LIMIT:
            continue
        content = path.read_bytes()
        if b"\0" in content:
            continue  # binary, or an overlay whiteout's device node read as empty: left alone
        changed = content
        for pattern, token in patterns:
            changed = pattern.sub(token, changed)
        if changed != content:
            with open(path, "r+b") as handle:  # in place: the file keeps its owner, mode and attributes
                handle.write(changed)
                handle.truncate()
            files.append(relative)
    manifest = layer / IMAGE_HOST_MANIFEST
    manifest.parent.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps({"tokens": {"hostname": HOSTNAME_TOKEN, "address": ADDRESS_TOKEN},
                                    "files": files, "services": image_services(layer, identity.running)},
                                   indent=1) + "\n")
    return files


def image_services(layer: Path, running: list[str]) -> list[str]:
    """Of the services that ran on the build server, those the image installed or configured (its init script
    or its /etc directory is in the layer): the machine's own, seen through the lower layer, stay out."""
    return [name for name in running
            if (layer / "etc" / "init.d" / name).exists() or (layer / "etc" / name).is_dir()]
