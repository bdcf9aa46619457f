"""Which addresses a test env's hosts take: 127.0.0.N as always, or from any loopback address on, past the end of
a /24, never on 127.0.0.254 (the probe for something listening on every address) nor on .0 or .255."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from runner.cli.testenv import cli
from runner.testenv import TestEnv, TestEnvError
from runner.testenv.addresses import UNUSED_LOOPBACK, host_addresses, parse_base, search_range


def test_a_number_is_127_0_0_n_and_stays_within_253_as_before() -> None:
    assert host_addresses(20, 3) == ["127.0.0.20", "127.0.0.21", "127.0.0.22"]
    assert host_addresses(253, 1) == ["127.0.0.253"]
    with pytest.raises(TestEnvError, match=r"3 hosts from 127\.0\.0\.252 do not fit in 127\.0\.0\.2-127\.0\.0\.253"):
        host_addresses(252, 3)
    with pytest.raises(TestEnvError, match="do not fit"):
        host_addresses(1, 1)


def test_an_address_base_goes_on_past_its_24_skipping_0_and_255() -> None:
    addresses = host_addresses("127.0.1.250", 8)
    assert addresses == ["127.0.1.250", "127.0.1.251", "127.0.1.252", "127.0.1.253", "127.0.1.254",
                         "127.0.2.1", "127.0.2.2", "127.0.2.3"]
    assert len(set(host_addresses("127.0.1.1", 400))) == 400


def test_an_address_base_on_127_0_0_passes_over_the_probe_and_the_machines_own() -> None:
    addresses = host_addresses("127.0.0.252", 4)
    assert addresses == ["127.0.0.252", "127.0.0.253", "127.0.1.1", "127.0.1.2"]
    assert UNUSED_LOOPBACK not in host_addresses("127.0.0.2", 300)


@pytest.mark.parametrize("text", ["127.0.0.254", "127.0.0.1", "127.0.1.0", "127.0.1.255", "10.0.0.1", "host"])
def test_a_base_no_host_can_take_is_a_clear_error(text: str) -> None:
    with pytest.raises(TestEnvError, match="base address"):
        parse_base(text)
    with pytest.raises(TestEnvError, match="base address"):
        TestEnv(name="addresses", count=1, base_address=text)


def test_the_last_addresses_of_loopback_bound_an_env() -> None:
    assert host_addresses("127.255.255.253", 2) == ["127.255.255.253", "127.255.255.254"]
    with pytest.raises(TestEnvError, match=r"do not fit below 127\.255\.255\.255"):
        host_addresses("127.255.255.253", 3)


def test_a_free_address_is_looked_for_to_the_end_of_the_bases_24() -> None:
    assert search_range(250) == ["127.0.0.250", "127.0.0.251", "127.0.0.252", "127.0.0.253"]
    assert search_range("127.0.2.252") == ["127.0.2.252", "127.0.2.253", "127.0.2.254"]


def test_an_env_lists_its_hosts_on_the_addresses_it_takes() -> None:
    env = TestEnv(name="addresses", count=3, base_address="127.0.1.254")
    assert env.wanted() == [("host1", "127.0.1.254"), ("host2", "127.0.2.1"), ("host3", "127.0.2.2")]
    assert TestEnv(name="addresses", count=2, base_address=40).wanted() == [("host1", "127.0.0.40"),
                                                                           ("host2", "127.0.0.41")]


def test_the_cli_takes_a_number_or_an_address_and_says_what_is_wrong() -> None:
    result = CliRunner().invoke(cli, ["up", "2", "--base", "127.0.0.254"])
    assert result.exit_code == 5 and "127.0.0.254" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(cli, ["up", "300", "--base", "20"])
    assert result.exit_code == 1 and "do not fit" in result.output and "Traceback" not in result.output
