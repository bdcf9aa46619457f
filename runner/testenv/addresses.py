"""Which loopback addresses a test env's hosts take.

All of 127.0.0.0/8 is loopback on Linux, so hosts need not stop at 127.0.0.253. An env's base address is either a
number N, the first host on 127.0.0.N as it always was (and the env kept within 127.0.0.2-127.0.0.253), or a whole
address in 127.0.0.0/8 such as 127.0.1.1, from which the hosts take consecutive addresses, across /24s when they
do not fit in one. Addresses ending in .0 or .255 are passed over (they read as a network's and its broadcast's),
and so are 127.0.0.0-127.0.0.1 (the machine's own) and ``UNUSED_LOOPBACK``, which no env uses: answering there
means something listens on every address.
"""

from __future__ import annotations

import ipaddress

from runner.testenv.errors import TestEnvError

# An address no env uses: answering on it means something listens on every address.
UNUSED_LOOPBACK = "127.0.0.254"
_LOOPBACK = ipaddress.IPv4Network("127.0.0.0/8")
_FIRST = ipaddress.IPv4Address("127.0.0.2")
_LAST = ipaddress.IPv4Address("127.255.255.254")
_OWN_SUBNET_LAST = 253  # on 127.0.0.x, .254 is UNUSED_LOOPBACK


def parse_base(value: int | str) -> int | str:
    """A base as ``--base`` or a caller gives it: a number (127.0.0.N) or a loopback address, checked."""
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    try:
        address = ipaddress.IPv4Address(text)
    except ValueError:
        raise TestEnvError(f"base address {text!r} is neither a number N (127.0.0.N) nor an address such as "
                           "127.0.1.1") from None
    if address not in _LOOPBACK or not _FIRST <= address <= _LAST or not _usable(address):
        raise TestEnvError(f"base address {text} is not one a test host can take: an address from 127.0.0.2 to "
                           f"127.255.255.254 not ending in .0 or .255, other than {UNUSED_LOOPBACK}")
    return text


def host_addresses(base: int | str, count: int) -> list[str]:
    """The addresses of ``count`` hosts from ``base`` up; a TestEnvError when they do not fit."""
    if isinstance(base, int):
        if count < 1 or base < 2 or base + count - 1 > _OWN_SUBNET_LAST:
            raise TestEnvError(f"{count} hosts from 127.0.0.{base} do not fit in 127.0.0.2-127.0.0.253 "
                               "(.254 is kept free); start from an address such as 127.0.1.1 for more")
        return [f"127.0.0.{base + index}" for index in range(count)]
    if count < 1:
        raise TestEnvError(f"{count} hosts: an env has one host at least")
    found: list[str] = []
    address = ipaddress.IPv4Address(parse_base(base))
    while len(found) < count:
        if address > _LAST:
            raise TestEnvError(f"{count} hosts from {base} do not fit below 127.255.255.255")
        if _usable(address):
            found.append(str(address))
        address += 1
    return found


def search_range(base: int | str) -> list[str]:
    """Where a free address for one more host is looked for: from the base to the end of its /24."""
    first = ipaddress.IPv4Address(f"127.0.0.{base}" if isinstance(base, int) else parse_base(base))
    end = _OWN_SUBNET_LAST if str(first).startswith("127.0.0.") else 254
    network = int(first) & ~0xFF
    return [str(ipaddress.IPv4Address(network + last)) for last in range(int(first) & 0xFF, end + 1)
            if _usable(ipaddress.IPv4Address(network + last))]


def first_address(base: int | str) -> str:
    return f"127.0.0.{base}" if isinstance(base, int) else str(parse_base(base))


def _usable(address: ipaddress.IPv4Address) -> bool:
    last = int(address) & 0xFF
    return last not in (0, 255) and address >= _FIRST and str(address) != UNUSED_LOOPBACK
