"""When two clients count as one network address (同IP禁止同桌, for 匹配 and club tables)."""

from __future__ import annotations

import pytest

from baofen.server.quickmatch.line import Waiting, table_group
from baofen.server.security.addresses import network_of


@pytest.mark.parametrize(("one", "other", "same"), [
    ("203.0.113.5", "203.0.113.5", True),
    ("203.0.113.5", "203.0.113.6", False),  # IPv4: the whole address
    ("2001:db8:1:2::1", "2001:db8:1:2:aaaa:bbbb:cccc:dddd", True),  # one /64
    ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
    ("::ffff:203.0.113.5", "203.0.113.5", True),  # IPv4-mapped: the IPv4 address
    ("testclient", "testclient", True),  # not an IP address: compared as it is
])
def test_addresses_compared(one: str, other: str, same: bool) -> None:
    assert (network_of(one) == network_of(other)) is same


def test_an_unknown_address_matches_nothing() -> None:
    assert network_of(None) == network_of("") == ""
    line = [Waiting(f"t{n}", "baofen", f"p{n}", None, "") for n in range(4)]
    assert len(table_group(line)) == 4


def test_quick_match_seats_one_ipv6_block_once() -> None:
    line = [Waiting("a", "baofen", "a", None, "2001:db8::1"),
            Waiting("b", "baofen", "b", None, "2001:db8::2"),
            Waiting("c", "baofen", "c", None, "2001:db8:0:1::2")]
    assert [w.ticket for w in table_group(line)] == ["a", "c"]
