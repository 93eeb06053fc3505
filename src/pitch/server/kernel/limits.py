"""Rate limits: token buckets, per connection and per client address."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
from collections import OrderedDict
from collections.abc import Sequence


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up.

    >>> b = TokenBucket(rate=0.0, burst=2)
    >>> b.take(), b.take(), b.take()
    (True, True, False)
    """

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, *, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.stamp = time.monotonic()

    def take(self, n: float = 1.0) -> bool:
        if self.has(n):
            self.tokens -= n
            return True
        return False

    def has(self, n: float = 1.0) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens >= n


class KeyedBuckets:
    """One bucket per key (client address), the least recently used dropped past
    ``max_keys`` so that a flood of addresses cannot grow memory without bound."""

    def __init__(self, *, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str, n: float = 1.0) -> bool:
        return self._bucket(key, 1.0).take(n)

    def take_all(self, keys: Sequence[tuple[str, float]], n: float = 1.0) -> bool:
        """Take ``n`` from the bucket of every key, or from none if one is short: each
        key with its factor, its budget that many times a single key's (a client's
        /64 and the wider networks it is in, :func:`client_networks`).

        >>> b = KeyedBuckets(rate=0.0, burst=1)
        >>> [b.take_all([(f"net{i}", 1.0), ("wide", 2.0)]) for i in range(3)]
        [True, True, False]
        """
        buckets = [self._bucket(k, f) for k, f in keys]
        if not all(b.has(n) for b in buckets):
            return False
        for b in buckets:
            b.tokens -= n
        return True

    def available(self, keys: Sequence[tuple[str, float]]) -> float:
        """The most :meth:`take_all` would grant ``keys`` now.

        >>> b = KeyedBuckets(rate=0.0, burst=3)
        >>> b.take_all([("a", 1.0), ("wide", 2.0)], 2), b.available([("a", 1.0), ("wide", 2.0)])
        (True, 1.0)
        """
        buckets = [self._bucket(k, f) for k, f in keys]
        for b in buckets:
            b.has(0.0)  # brought up to now
        return min(b.tokens for b in buckets)

    def _bucket(self, key: str, factor: float) -> TokenBucket:
        b = self._buckets.get(key)
        if b is None:
            b = TokenBucket(rate=self.rate * factor, burst=self.burst * factor)
            self._buckets[key] = b
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return b


def client_address(host: str | None) -> str:
    """The address limits count by: an IPv4 address as is, an IPv6 address as its /64
    (one customer's network: a client can take any address in it at will)."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


IPV6_NETWORKS: tuple[tuple[int, float], ...] = ((56, 4.0), (48, 16.0))
"""Wider IPv6 networks a client is also counted by, each with its budget as a multiple
of one /64's: a /56 is what a provider gives one home, a /48 one site (an office, a
campus), and each holds 256 /64s to take at will; one /48's 60 /64s made 120 live
tables of a server's 120. Larger budgets, since many people may share one."""


def client_networks(host: str | None) -> list[tuple[str, float]]:
    """The addresses the per-client rates count ``host`` by, each with the multiple of
    the budget it has: its :func:`client_address`, and for IPv6 its /56 and /48 too.

    >>> client_networks("192.0.2.1")
    [('192.0.2.1', 1.0)]
    >>> [n for n, _ in client_networks("2001:db8:1:2::1")]
    ['2001:db8:1:2::/64', '2001:db8:1::/56', '2001:db8:1::/48']
    """
    own = client_address(host)
    out = [(own, 1.0)]
    try:
        net = ipaddress.IPv6Network(own)  # an IPv6 client's /64 (not a mapped IPv4's)
    except ValueError:
        return out
    ip = net.network_address
    return out + [(str(ipaddress.IPv6Network((ip, b), strict=False)), f) for b, f in IPV6_NETWORKS]


def client_site(host: str | None) -> str:
    """The network around ``host`` that one owner is likely to hold whole: an IPv4
    address's /24, an IPv6 address's /48 (an IPv4-mapped one's /24).

    >>> client_site("192.0.2.77"), client_site("2001:db8:1:2::1"), client_site("x")
    ('192.0.2.0/24', '2001:db8:1::/48', 'x')
    """
    own = client_address(host)
    try:
        net = ipaddress.ip_network(own)
    except ValueError:
        return own
    bits = 24 if net.version == 4 else 48
    return str(net.supernet(new_prefix=bits))


def client_key(host: str | None, secret: bytes) -> str:
    """A short keyed hash of the client's address (:func:`client_address`): limits need
    identity, the database need not keep addresses. The key (``secret``, one per
    database) keeps the hash from being reversed by hashing every IPv4 address.

    >>> client_key("2001:db8::1", b"k") == client_key("2001:db8::ffff:1", b"k")
    True
    >>> client_key("2001:db8::1", b"k") == client_key("2001:db8:0:1::1", b"k")
    False
    >>> client_key("192.0.2.1", b"k") == client_key("192.0.2.1", b"other")
    False
    """
    return network_key(client_address(host), secret)


def network_key(address: str, secret: bytes) -> str:
    """:func:`client_key` of an address or network already worked out."""
    return hmac.new(secret, address.encode(), hashlib.sha256).hexdigest()[:16]
