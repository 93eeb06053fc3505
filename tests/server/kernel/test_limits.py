"""Per-client rates (``pitch.server.kernel.limits``): an IPv6 client is counted by its /64,
and by its /56 and /48 with larger budgets (issue 43 part 3: 60 /64s of one /48 made
120 of a server's 120 tables). The same through a real server: tables/test_table_cap.py."""

from __future__ import annotations

from pitch.server.kernel.limits import KeyedBuckets, client_networks


def test_ipv6_clients_are_counted_by_their_56_and_48_too() -> None:
    nets = dict(client_networks("2001:db8:1:2:3::4"))
    assert nets == {"2001:db8:1:2::/64": 1.0, "2001:db8:1::/56": 4.0, "2001:db8:1::/48": 16.0}
    assert client_networks("192.0.2.1") == [("192.0.2.1", 1.0)]
    assert client_networks("::ffff:192.0.2.1") == [("192.0.2.1", 1.0)]
    assert client_networks("not an address") == [("not an address", 1.0)]

    b = KeyedBuckets(rate=0.0, burst=1)
    one_56 = [b.take_all(client_networks(f"2001:db8:1:{i:x}::1")) for i in range(6)]
    assert one_56 == [True] * 4 + [False] * 2
    b = KeyedBuckets(rate=0.0, burst=1)
    one_48 = [b.take_all(client_networks(f"2001:db8:2:{i:x}00::1")) for i in range(20)]
    assert one_48 == [True] * 16 + [False] * 4
    assert b.take_all(client_networks("2001:db8:3::1"))  # another /48
    assert not b.take_all(client_networks("2001:db8:3::2"))  # the same /64 again
