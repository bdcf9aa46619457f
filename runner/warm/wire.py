"""The warm controller's wire format: JSON messages, each after a 4-byte length, over a Unix socket; the run
request carries the client's stdin, stdout and stderr as descriptors (SCM_RIGHTS) with its length.

The client sends ``run`` (argv, cwd, environment, umask, the signals it ignores), later ``signal`` messages;
the controller answers ``started`` (the child's pid), ``decline`` (run it yourself: why) or ``stale`` (this
controller is out of date and ends), and at the end ``exit`` (the code) or ``killed`` (the signal that ended the
child). ``hello`` and ``stop`` serve ``provisioning-config persist-status`` and ``persist-stop``.
"""

from __future__ import annotations

import json
import os
import socket
import struct

TYPE_CHECKING = False  # typing's, without importing typing: the warm client imports this module at every start
if TYPE_CHECKING:
    from typing import Any

HEADER = struct.Struct("!I")
MAX_MESSAGE = 1 << 24


class WireError(Exception):
    """The other end said something that is not this protocol, or went away mid-message."""


def encode(message: dict[str, Any]) -> bytes:
    data = json.dumps(message, separators=(",", ":")).encode()
    return HEADER.pack(len(data)) + data


def send(sock: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = encode(message)
    if fds:
        # The descriptors travel with the first bytes; the rest follows as a plain stream.
        sent = socket.send_fds(sock, [data[:HEADER.size]], fds)
        sock.sendall(data[sent:])
    else:
        sock.sendall(data)


def _read_exactly(sock: socket.socket, size: int) -> bytes:
    chunks = []
    while size:
        chunk = sock.recv(size)
        if not chunk:
            raise WireError("the other end closed the connection mid-message")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _decode(sock: socket.socket, head: bytes) -> dict[str, Any]:
    (length,) = HEADER.unpack(head)
    if length > MAX_MESSAGE:
        raise WireError(f"a message of {length} bytes")
    try:
        message = json.loads(_read_exactly(sock, length))
    except ValueError as exc:
        raise WireError(f"not a JSON message: {exc}") from None
    if not isinstance(message, dict):
        raise WireError("a message that is not an object")
    return message


def receive(sock: socket.socket) -> dict[str, Any] | None:
    """The next message, or None when the other end closed the connection between messages."""
    first = sock.recv(HEADER.size)
    if not first:
        return None
    return _decode(sock, first + _read_exactly(sock, HEADER.size - len(first)))


def receive_with_fds(sock: socket.socket, max_fds: int = 3) -> tuple[dict[str, Any] | None, list[int]]:
    """The next message and the descriptors that came with it (the caller owns and closes them)."""
    first, fds, _flags, _address = socket.recv_fds(sock, HEADER.size, max_fds)
    try:
        if not first:
            return None, fds
        return _decode(sock, first + _read_exactly(sock, HEADER.size - len(first))), fds
    except BaseException:
        for fd in fds:
            os.close(fd)
        raise
