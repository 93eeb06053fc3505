"""Rate limits: token buckets, per connection and per client address."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import time
from collections import OrderedDict


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
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= n:
            self.tokens -= n
            return True
        return False


class KeyedBuckets:
    """One bucket per key (client address), the least recently used dropped past
    ``max_keys`` so that a flood of addresses cannot grow memory without bound."""

    def __init__(self, *, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def take(self, key: str, n: float = 1.0) -> bool:
        b = self._buckets.get(key)
        if b is None:
            b = self._buckets[key] = TokenBucket(rate=self.rate, burst=self.burst)
            if len(self._buckets) > self.max_keys:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return b.take(n)


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
    address = client_address(host).encode()
    return hmac.new(secret, address, hashlib.sha256).hexdigest()[:16]
