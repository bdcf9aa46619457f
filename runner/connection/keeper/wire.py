"""The keeper's wire format over its Unix socket.

Requests and replies are JSON messages, each after a 4-byte length. Once an agent is lent, the socket carries a
relay: frames of one kind byte and a 4-byte length. The borrower sends the agent's stdin (``i``), the end of it
(``e``), a request to stop it (``t``) or the agent handed back idle with the modules it holds (``r``); the keeper
sends the agent's stdout (``o``), stderr (``s``) and its exit status (``x``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import struct
from functools import cache
from pathlib import Path
from typing import Any

MESSAGE_HEADER = struct.Struct("!I")
RELAY_HEADER = struct.Struct("!cI")
MAX_MESSAGE = 1 << 24

STDIN, STDIN_EOF, TERMINATE, RETURN = b"i", b"e", b"t", b"r"
STDOUT, STDERR, EXIT = b"o", b"s", b"x"


class KeeperProtocolError(Exception):
    """The other end said something that is not the keeper's protocol."""


def encode_message(message: dict[str, Any]) -> bytes:
    data = json.dumps(message, separators=(",", ":")).encode()
    return MESSAGE_HEADER.pack(len(data)) + data


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message, or None at the end of the stream."""
    try:
        head = await reader.readexactly(MESSAGE_HEADER.size)
        (length,) = MESSAGE_HEADER.unpack(head)
        if length > MAX_MESSAGE:
            raise KeeperProtocolError(f"a message of {length} bytes")
        message = json.loads(await reader.readexactly(length))
    except asyncio.IncompleteReadError:
        return None
    except ValueError as exc:
        raise KeeperProtocolError(f"not a JSON message: {exc}") from None
    if not isinstance(message, dict):
        raise KeeperProtocolError("a message that is not an object")
    return message


def relay_frame(kind: bytes, data: bytes = b"") -> bytes:
    return RELAY_HEADER.pack(kind, len(data)) + data


async def read_relay_frame(reader: asyncio.StreamReader) -> tuple[bytes, bytes] | None:
    """The next relay frame (kind, data), or None at the end of the stream."""
    try:
        kind, length = RELAY_HEADER.unpack(await reader.readexactly(RELAY_HEADER.size))
        return kind, (await reader.readexactly(length) if length else b"")
    except asyncio.IncompleteReadError:
        return None


@cache
def build_id() -> str:
    """The version of the keeper's code and of the agent it lends: a keeper of another build is replaced, never
    spoken to (its protocol or its agents may differ)."""
    from runner import __version__

    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).parent
    agent = here.parent.parent / "agent"
    for path in [*sorted(here.glob("*.py")), agent / "boot.py", agent / "remote.py"]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
