"""iptables on a test host. The test hosts share the machine's network namespace, so every rule here goes into
a chain of the test's own, PROVISIONING_TEST, that no other chain jumps to: it matches no packet the machine
sends or receives. The chain is created and deleted by the module itself, and removed at the end whatever
happened."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.remote_harness import RemoteHost, converge

CHAIN = "PROVISIONING_TEST"


@pytest.fixture(scope="module")
def chain(host: RemoteHost) -> Iterator[str]:
    if "Permission denied" in host.shell("iptables -S OUTPUT 2>&1 >/dev/null || true"):
        pytest.skip("iptables needs CAP_NET_ADMIN on the test host")
    yield CHAIN
    host.shell(f"iptables -F {CHAIN} 2>/dev/null; iptables -X {CHAIN} 2>/dev/null; true")


def rules(host: RemoteHost) -> str:
    return host.shell(f"iptables -S {CHAIN} 2>/dev/null || echo absent")


def test_chain_rules_and_removal(host: RemoteHost, chain: str) -> None:
    created = converge(host, "iptables", {"chain": chain, "chain_management": True}, diff=False,
                       state=lambda: rules(host))
    assert created["rule"] == "" and rules(host) == f"-N {chain}\n"

    drop = {"chain": chain, "protocol": "tcp", "source": "192.0.2.1", "destination_port": "9", "jump": "DROP",
            "comment": "provisioning test"}
    added = converge(host, "iptables", drop, diff=False, state=lambda: rules(host))
    assert added["rule"] == "-p tcp -s 192.0.2.1 -j DROP --destination-port 9 -m comment --comment provisioning test"
    first = {"chain": chain, "action": "insert", "protocol": "udp", "destination_ports": ["53", "5353"],
             "ctstate": ["NEW"], "jump": "ACCEPT"}
    converge(host, "iptables", first, diff=False, state=lambda: rules(host))
    assert rules(host).splitlines() == [
        f"-N {chain}",
        f"-A {chain} -p udp -m multiport --dports 53,5353 -m conntrack --ctstate NEW -j ACCEPT",
        f'-A {chain} -s 192.0.2.1/32 -p tcp -m tcp --dport 9 -m comment --comment "provisioning test" -j DROP']

    converge(host, "iptables", {**drop, "state": "absent"}, diff=False, state=lambda: rules(host))
    assert "192.0.2.1" not in rules(host)
    flushed = host.run("iptables", {"chain": chain, "flush": True})
    assert flushed["changed"] is True and rules(host) == f"-N {chain}\n"
    converge(host, "iptables", {"chain": chain, "state": "absent", "chain_management": True}, diff=False,
             state=lambda: rules(host))
    assert rules(host) == "absent\n"


def test_policy_of_a_chain_without_one_fails(host: RemoteHost, chain: str) -> None:
    host.shell(f"iptables -N {chain} 2>/dev/null || true")
    result = host.run("iptables", {"chain": chain, "policy": "DROP"}, check=True)
    assert result.get("failed") and "policy" in result["msg"], result


@pytest.mark.parametrize(("args", "message"), [
    ({"chain": CHAIN, "log_prefix": "x", "jump": "DROP"}, "Logging options can only be used"),
    ({"chain": CHAIN, "flush": True, "policy": "DROP"}, "mutually exclusive"),
    ({"protocol": "tcp"}, "chain"),
    ({"chain": CHAIN, "jump": "TEE"}, "gateway"),
])
def test_bad_arguments(host: RemoteHost, args: dict, message: str) -> None:
    result = host.run("iptables", args, check=True)
    assert result.get("failed") and message in result["msg"], result
