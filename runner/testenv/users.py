"""The test users every host has, added to copies of the machine's account files (pure text in, text out).

``deploy`` has passwordless sudo; ``sudopw`` needs its password for sudo (and can log in with it, for ``-k``).
Both log in with the env's client key through the host's shared authorized-keys file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

SUDOPW_PASSWORD = "sudopw-secret"
# SHA-512 crypt of SUDOPW_PASSWORD with a fixed salt (openssl passwd -6), so no crypt library is needed.
SUDOPW_HASH = "$6$provtestenv$PCOzN3vwDTagC7yrcaN7eqK.1.shCL/4nZwbvtQ.D7Gxrq757bxDPom.TnI5r3HpG02qiDHJsEsBaIVPsnar60"
FIRST_UID = 1000
LAST_UID = 59999
DAYS_SINCE_EPOCH = 19000  # "password last changed": any past day, so no password counts as expired


@dataclass(frozen=True)
class TestUser:
    __test__ = False  # not a pytest test class, despite its name

    name: str
    password_hash: str  # "*": no password, key login only
    sudo_rule: str

    @property
    def home(self) -> str:
        return f"/home/{self.name}"


TEST_USERS = (
    TestUser("deploy", "*", "ALL=(ALL:ALL) NOPASSWD: ALL"),
    TestUser("sudopw", SUDOPW_HASH, "ALL=(ALL:ALL) ALL"),
)


@dataclass(frozen=True)
class AccountFiles:
    """The text of /etc/passwd, /etc/shadow, /etc/group and /etc/gshadow (None where the machine has none)."""

    passwd: str
    shadow: str
    group: str
    gshadow: str | None = None


def sudoers_rules(users: tuple[TestUser, ...] = TEST_USERS) -> str:
    return "".join(f"{user.name} {user.sudo_rule}\n" for user in users)


def _entries(text: str) -> list[list[str]]:
    return [line.split(":") for line in text.splitlines() if line.strip()]


def _render(entries: list[list[str]]) -> str:
    return "".join(":".join(fields) + "\n" for fields in entries)


def _set_entry(entries: list[list[str]], fields: list[str]) -> None:
    """Replace the entry with the same name, or append it."""
    for index, existing in enumerate(entries):
        if existing[0] == fields[0]:
            entries[index] = fields
            return
    entries.append(fields)


def _free_id(taken: set[int]) -> int:
    for candidate in range(FIRST_UID, LAST_UID + 1):
        if candidate not in taken:
            return candidate
    raise ValueError("no free uid/gid between 1000 and 59999")


def with_test_users(files: AccountFiles, users: tuple[TestUser, ...] = TEST_USERS
                    ) -> tuple[AccountFiles, dict[str, tuple[int, int]]]:
    """The account files with ``users`` added (or updated), and each user's (uid, gid).

    A user the machine already has keeps its uid and gid (its home and shell become the test user's); a new
    one gets the first free id as both uid and gid (a personal group, as adduser makes).
    """
    passwd, shadow, group = _entries(files.passwd), _entries(files.shadow), _entries(files.group)
    gshadow = _entries(files.gshadow) if files.gshadow is not None else None
    ids: dict[str, tuple[int, int]] = {}
    for user in users:
        existing = next((fields for fields in passwd if fields[0] == user.name), None)
        if existing is not None:
            uid, gid = int(existing[2]), int(existing[3])
        else:
            taken = {int(fields[2]) for fields in passwd} | {int(fields[2]) for fields in group}
            uid = gid = _free_id(taken)
        _set_entry(passwd, [user.name, "x", str(uid), str(gid), f"{user.name} (test user)", user.home, "/bin/bash"])
        if not any(fields[2] == str(gid) for fields in group):
            group.append([user.name, "x", str(gid), ""])
            if gshadow is not None:
                gshadow.append([user.name, "!", "", ""])
        _set_entry(shadow, [user.name, user.password_hash, str(DAYS_SINCE_EPOCH), "0", "99999", "7", "", "", ""])
        ids[user.name] = (uid, gid)
    updated = replace(files, passwd=_render(passwd), shadow=_render(shadow), group=_render(group),
                      gshadow=_render(gshadow) if gshadow is not None else None)
    return updated, ids
