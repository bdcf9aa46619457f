"""A host's upper layer: the files that make it itself (name, sshd, users, sudo), written before it starts.

The overlay's lower layer is the machine's ``/``, so the upper layer holds only what differs. Files are written
before the overlay is mounted (overlayfs does not expect its upper layer to change under it).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from pathlib import Path

from runner.testenv.image_host import hosts_from_layers
from runner.testenv.users import TEST_USERS, AccountFiles, sudoers_rules, with_test_users

SSHD_CONFIG = "/etc/ssh/provisioning_sshd_config"
HOST_KEY = "/etc/ssh/provisioning_host_ed25519_key"
AUTHORIZED_KEYS = "/etc/ssh/provisioning_authorized_keys"
SUDOERS = "/etc/sudoers.d/provisioning-testenv"
POLICY_RC = "/usr/sbin/policy-rc.d"
SKELETON = Path("/etc/skel")

# exit 101 = "action forbidden": a package install must not start its daemon with a packaged config that
# would collide across hosts (they share the machine's network).
POLICY_RC_TEXT = "#!/bin/sh\n# Written by provisioning-testenv: packages do not start their services here.\nexit 101\n"

SSHD_CONFIG_TEXT = """\
# Written by provisioning-testenv for the test host {name}.
ListenAddress {address}:22
HostKey {host_key}
PidFile none
PermitRootLogin prohibit-password
PasswordAuthentication yes
KbdInteractiveAuthentication no
UsePAM no
AuthorizedKeysFile .ssh/authorized_keys {authorized_keys}
UseDNS no
PrintMotd no
MaxSessions 64
MaxStartups 200
AcceptEnv LANG LC_*
Subsystem sftp internal-sftp
"""


def beneath(path: str, lowers: Sequence[Path] = ()) -> Path:
    """Where the host's lower layers hold ``path``: the topmost extra layer that has it (a golden image's root),
    else the machine's own. A whiteout (a character device) in a layer hides the path, as overlayfs does."""
    for layer in lowers:
        candidate = layer / path.lstrip("/")
        if candidate.is_symlink() or candidate.exists():
            return Path(os.devnull) if candidate.is_char_device() else candidate
    return Path(path)


def ensure_dir(upper: Path, path: str, lowers: Sequence[Path] = ()) -> Path:
    """Create ``path`` in the upper layer, each new directory with the mode and owner of the lower layers' one:
    an upper directory's attributes are what the host sees for the merged directory."""
    target = upper
    for part in Path(path).relative_to("/").parts:
        target = target / part
        if not target.is_dir():
            lower = beneath("/" + str(target.relative_to(upper)), lowers)
            info = lower.stat() if lower.is_dir() else None
            target.mkdir()
            if info is not None:
                os.chmod(target, info.st_mode & 0o7777)
                os.chown(target, info.st_uid, info.st_gid)
    return target


def write_file(upper: Path, path: str, text: str, mode: int = 0o644, owner: tuple[int, int] = (0, 0),
               lowers: Sequence[Path] = ()) -> None:
    target = ensure_dir(upper, str(Path(path).parent), lowers) / Path(path).name
    target.write_text(text)
    os.chmod(target, mode)
    os.chown(target, *owner)


def _write_like_lower(upper: Path, path: str, text: str, lowers: Sequence[Path]) -> None:
    """Write ``path`` with the lower layers' mode and owner for it (/etc/shadow stays root:shadow 0640)."""
    info = os.stat(beneath(path, lowers))
    write_file(upper, path, text, info.st_mode & 0o7777, (info.st_uid, info.st_gid), lowers)


def _read_account_files(lowers: Sequence[Path]) -> AccountFiles:
    """The accounts the host starts with: a golden image's (with the users its packages added), else the
    machine's."""
    gshadow = beneath("/etc/gshadow", lowers)
    return AccountFiles(passwd=beneath("/etc/passwd", lowers).read_text(),
                        shadow=beneath("/etc/shadow", lowers).read_text(),
                        group=beneath("/etc/group", lowers).read_text(),
                        gshadow=gshadow.read_text() if gshadow.is_file() else None)


def _add_users(upper: Path, lowers: Sequence[Path]) -> None:
    files, ids = with_test_users(_read_account_files(lowers))
    for path, text in (("/etc/passwd", files.passwd), ("/etc/shadow", files.shadow), ("/etc/group", files.group),
                       ("/etc/gshadow", files.gshadow)):
        if text is not None:
            _write_like_lower(upper, path, text, lowers)
    write_file(upper, SUDOERS, sudoers_rules(), mode=0o440, lowers=lowers)
    for user in TEST_USERS:
        uid, gid = ids[user.name]
        home = ensure_dir(upper, user.home, lowers)
        if SKELETON.is_dir():
            shutil.copytree(SKELETON, home, dirs_exist_ok=True)
        for owned in (home, *home.rglob("*")):
            os.chown(owned, uid, gid, follow_symlinks=False)
        os.chmod(home, 0o750)


def _fresh_root_dotfiles(upper: Path) -> None:
    """root's shell start-up files as a fresh Debian has them (/etc/skel), not the machine's: the lower layer is
    the machine's /, and whatever its root's .bashrc runs (a version manager's init, say) would run at every login
    on every host — slowly, and sharing the machine's lock files."""
    for name in (".bashrc", ".profile"):
        skeleton = SKELETON / name
        if skeleton.is_file():
            write_file(upper, f"/root/{name}", skeleton.read_text())


def prepare_upper(upper: Path, name: str, address: str, peers: list[tuple[str, str]], client_public_key: str,
                  lowers: Sequence[Path] = ()) -> None:
    """Write a fresh host's own files into ``upper``; ``peers`` (name, address) go to /etc/hosts. ``lowers`` are
    the extra lower layers its root stacks over the machine's / (topmost first)."""
    write_file(upper, "/etc/hostname", f"{name}\n", lowers=lowers)
    hosts = "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n"
    hosts += "".join(f"{peer_address}\t{peer_name}\n" for peer_name, peer_address in peers)
    write_file(upper, "/etc/hosts", hosts_from_layers(hosts, lowers, name, address), lowers=lowers)
    write_file(upper, POLICY_RC, POLICY_RC_TEXT, mode=0o755, lowers=lowers)
    write_file(upper, SSHD_CONFIG, SSHD_CONFIG_TEXT.format(name=name, address=address, host_key=HOST_KEY,
                                                           authorized_keys=AUTHORIZED_KEYS), lowers=lowers)
    write_file(upper, AUTHORIZED_KEYS, client_public_key.strip() + "\n", lowers=lowers)
    _fresh_root_dotfiles(upper)
    _add_users(upper, lowers)
