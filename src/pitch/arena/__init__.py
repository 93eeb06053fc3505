"""The arena: duplicate matches between two bots (``pitch arena``), their statistics
(``pitch arena-compare``), and the same matches as Ray tasks on a cluster.

Above :mod:`pitch.bots` (it plays bots by their specs, never the other way round);
nothing of the server imports it. Import the modules themselves (``match``, ``stats``,
``ray_runner``): this package's own import loads nothing.
"""
