"""The client's address as the server can trust it: the socket's peer, or what a trusted proxy says.

Behind a reverse proxy every request comes from the proxy's address; the client's is the last entry
the proxy appended to ``X-Forwarded-For``. Entries before it were written by whoever sent the request
and prove nothing, so the list is read from the right, past the trusted proxies only
(``AGENT_API_TRUSTED_PROXIES``); with none trusted, the peer is the client. A server whose uvicorn
already rewrote the peer (``--proxy-headers --forwarded-allow-ips``) gives the client here as the peer.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(entries: Iterable[str], setting: str = "AGENT_API_TRUSTED_PROXIES") -> tuple[Network, ...]:
    """Addresses or networks (``10.0.0.0/8``), or a sentence naming the one that is neither."""
    found: list[Network] = []
    for entry in entries:
        try:
            found.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            raise ValueError(
                f"{setting}: {entry.strip()!r} is not an address or a network: write them like "
                "'127.0.0.1,10.0.0.0/8'."
            ) from None
    return tuple(found)


@dataclass(frozen=True)
class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` entries are believed."""

    networks: tuple[Network, ...] = ()

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address.strip())
        except ValueError:
            return False
        return any(ip in network for network in self.networks)

    def client(self, peer: str, forwarded_for: str = "") -> str:
        """The client's address: the rightmost ``forwarded_for`` entry that is no trusted proxy, when
        ``peer`` is one; otherwise ``peer``."""
        if not self.trusts(peer):
            return peer
        entries = [entry.strip() for entry in forwarded_for.split(",") if entry.strip()]
        for entry in reversed(entries):
            if not self.trusts(entry):
                return entry
        return entries[0] if entries else peer
