"""When two clients count as one network address (同IP禁止同桌: 匹配 and club tables).

The address is the client's as the server sees it: the connection's peer, or behind a trusted
reverse proxy (``forwarded_allow_ips``) the address that proxy names in ``X-Forwarded-For``
(uvicorn's proxy headers). A header from any other peer is ignored, so a client cannot pose
as another address. IPv4 addresses are compared whole; IPv6 ones by their /64 prefix, the
block one household or phone is given (its privacy addresses change within it). IPv4-mapped
IPv6 addresses count as their IPv4 address. Text that is no IP address (a test client, a Unix
socket) is compared as it is; an empty one (unknown) matches nothing.
"""

from __future__ import annotations

import ipaddress

IPV6_PREFIX = 64
"""The IPv6 prefix length one subscriber holds."""


def network_of(address: str | None) -> str:
    """The mark two clients of one network address share ("" for an unknown address)."""
    if not address:
        return ""
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)
