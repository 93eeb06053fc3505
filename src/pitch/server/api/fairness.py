"""The fairness page: how deals are made."""

FAIRNESS_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>How cards are dealt - pitch</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/page.css"></head><body><main>
<h1>How cards are dealt</h1>
<p>Every hand at a live table is shuffled by the server with Python's
<code>secrets</code> module (<code>secrets.SystemRandom</code>), which draws from the
operating system's cryptographic random source. No seed is stored or reused, so no one,
including the people who run the server, can predict or choose a deal.</p>
<p>The shuffle is a Fisher&ndash;Yates shuffle of the 52-card deck: every order is
equally likely. Six cards go to each player, one at a time, clockwise from the
dealer's left (rule R2.2); the first dealer is also drawn at random (R2.4).</p>
<p>The deal is stored the moment it is made, in the same database transaction as the
action that ended the previous hand, and the server never changes it afterwards. Each
player is sent only their own cards; other players' cards are sent to no one until
they are played.</p>
<p>When a game ends, anyone can download its full record (every deal, bid and card)
and check it with <code>pitch verify</code>, which replays the game by the rules and
recomputes every score.</p>
<p>Bots see exactly what a human in their seat would see: their own cards and the
public play. They never see the deck or other hands.</p>
<p><a href="/">Back</a> &middot; <a href="/docs">API documentation</a></p>
</main></body></html>
"""
