"""Per-address limits: what stops one client from filling the server.

Without them one client could create thousands of tables in seconds (each
a row in the database and an object in memory), take every seat of every
open table, or hold thousands of sockets open.  Each kind of request has a
:class:`RateLimiter` keyed by the client's address (a token bucket: a burst
of ``burst`` requests, then ``burst`` per ``window`` seconds), and
:class:`SocketCounter` caps the sockets open at once, in total and per
address.  A refusal is decided before anything is read from or written to
the database, so it costs next to nothing and changes nothing for anyone.

The client's address is the peer of the TCP connection.  Behind a reverse
proxy every peer is the proxy, so ``X-Forwarded-For`` is believed, but only
when the peer is one of the configured trusted proxies: otherwise anyone
could pick a fresh address for every request by sending the header.

An IPv6 client is counted by its /64 network, not its address: a home or
a server is routinely given a whole /64, so one client holds 2**64
addresses and per-address limits keyed on exact addresses would not limit
it at all (issue 22, hole 8).  An IPv4 address mapped into IPv6
(``::ffff:a.b.c.d``) is counted as the IPv4 address.
"""

from __future__ import annotations

import ipaddress
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

#: Addresses tracked per limiter before idle ones are forgotten (memory bound).
MAX_KEYS = 50_000


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class RateLimiter:
    """A token bucket per key: ``burst`` at once, refilled at ``burst / window`` per second.

    ``burst`` 0 disables the limiter (every request is allowed).  ``clock``
    is injectable so tests do not have to wait.  Memory is bounded: when
    more than ``max_keys`` addresses are tracked, those whose bucket has
    refilled (they are indistinguishable from new ones) are forgotten, and
    if that is not enough the oldest are.
    """

    def __init__(
        self,
        burst: int,
        window: float,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        self.burst = burst
        self.rate = burst / window if burst > 0 and window > 0 else 0.0
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, _Bucket] = {}

    @property
    def enabled(self) -> bool:
        return self.burst > 0 and self.rate > 0

    def hit(self, key: str) -> float:
        """Take one token for ``key``: 0.0 if allowed, else the seconds until it would be."""
        if not self.enabled:
            return 0.0
        now = self.clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._prune(now)
            bucket = self._buckets[key] = _Bucket(float(self.burst), now)
        else:
            bucket.tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may take a token (0.0: now), taking none: a
        bucket that only refusals draw from (unknown table codes) is looked
        at before every request and drawn from after a refusal."""
        bucket = self._buckets.get(key)
        if not self.enabled or bucket is None:
            return 0.0
        tokens = min(float(self.burst), bucket.tokens + (self.clock() - bucket.at) * self.rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full = [
            k for k, b in self._buckets.items() if b.tokens + (now - b.at) * self.rate >= self.burst
        ]
        for k in full:
            del self._buckets[k]
        if len(self._buckets) >= self.max_keys:
            by_age = sorted(self._buckets, key=lambda k: self._buckets[k].at)
            for k in by_age[: len(by_age) - self.max_keys // 2]:
                del self._buckets[k]

    def __len__(self) -> int:
        return len(self._buckets)


def retry_after(seconds: float) -> int:
    """``Retry-After`` is whole seconds; never 0 (that would invite an instant retry)."""
    return max(1, math.ceil(seconds))


class SocketCounter:
    """Open sockets, in total and per address, against two caps (0: no cap)."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total_cap = total
        self.per_address_cap = per_address
        self.total = 0
        self._by_address: dict[str, int] = {}

    def open(self, address: str) -> str | None:
        """Count a new socket: None if allowed, else why not
        (``server_full`` or ``too_many_sockets``)."""
        if self.total_cap and self.total >= self.total_cap:
            return "server_full"
        mine = self._by_address.get(address, 0)
        if self.per_address_cap and mine >= self.per_address_cap:
            return "too_many_sockets"
        self.total += 1
        self._by_address[address] = mine + 1
        return None

    def close(self, address: str) -> None:
        mine = self._by_address.get(address, 0)
        if mine <= 0:
            return
        self.total -= 1
        if mine == 1:
            del self._by_address[address]
        else:
            self._by_address[address] = mine - 1

    def of(self, address: str) -> int:
        return self._by_address.get(address, 0)


def parse_networks(
    proxies: Iterable[str],
) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``--trusted-proxy`` values (addresses or CIDR networks); ValueError on a bad one."""
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


def _in(address: str, networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


#: Prefix length an IPv6 client is counted by.
IPV6_PREFIX = 64


def limit_key(address: str) -> str:
    """The key a limit counts ``address`` under: an IPv4 address itself, an
    IPv6 address its /64 network (``2001:db8:1:2::/64``); anything else as is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_PREFIX), strict=False))
    return str(ip)


def client_address(
    peer: str | None,
    headers: Mapping[str, str],
    trusted: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...],
) -> str:
    """The address a limit counts (``limit_key``: IPv6 by its /64): the TCP
    peer, or, when the peer is a trusted proxy, the right-most
    ``X-Forwarded-For`` entry that is not itself a trusted proxy (entries left
    of it were written by the client and prove nothing)."""
    return limit_key(_client(peer, headers, trusted))


def _client(
    peer: str | None,
    headers: Mapping[str, str],
    trusted: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...],
) -> str:
    address = peer or "unknown"
    if not trusted or not _in(address, trusted):
        return address
    forwarded = headers.get("x-forwarded-for", "")
    hops = [h.strip() for h in forwarded.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _in(hop, trusted):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                return address  # a garbled header: count the proxy, not a made-up name
    return address
