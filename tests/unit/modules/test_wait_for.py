"""The pure parts of wait_for: reading /proc/net/tcp lines and counting active connections to a port."""

from __future__ import annotations

import socket

from modules.wait_for import count_connections, decode_address

TCP = [
    "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode",
    "   0: 1400007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1",  # listen
    "   1: 1400007F:1F90 0100007F:D431 01 00000000:00000000 00:00000000 00000000     0        0 2",  # in
    "   2: 1400007F:1F90 0500000A:D432 06 00000000:00000000 00:00000000 00000000     0        0 3",  # time_wait
    "   3: 0100007F:D431 1400007F:1F90 01 00000000:00000000 00:00000000 00000000     0        0 4",  # out
]
ACTIVE = {"ESTABLISHED", "TIME_WAIT"}


def test_addresses_are_decoded_from_proc_hex() -> None:
    assert decode_address("1400007F:1F90", socket.AF_INET) == ("127.0.0.20", 8080)
    assert decode_address("00000000000000000000000001000000:0016", socket.AF_INET6) == ("::1", 22)
    assert decode_address("0000000000000000FFFF00000100007F:0050", socket.AF_INET6) == ("127.0.0.1", 80)


def test_connections_to_the_port_are_counted_by_state_address_and_exclusion() -> None:
    assert count_connections(TCP, socket.AF_INET, 8080, {"127.0.0.20"}, ACTIVE, set()) == 2
    assert count_connections(TCP, socket.AF_INET, 8080, None, {"ESTABLISHED"}, set()) == 1
    assert count_connections(TCP, socket.AF_INET, 8080, {"127.0.0.20"}, ACTIVE, {"10.0.0.5"}) == 1
    assert count_connections(TCP, socket.AF_INET, 8080, {"127.0.0.21"}, ACTIVE, set()) == 0
    assert count_connections(TCP, socket.AF_INET, 9090, None, ACTIVE, set()) == 0
