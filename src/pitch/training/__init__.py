"""Training the bots' learned models from self-play (``pitch train``): where the
self-play tasks run (threads, or Ray tasks: ``selfplay``, ``ray_backend``), the win
value's network (``winvalue``) and the bid estimate's fit (``bidvalue``).

Above :mod:`pitch.bots`: the bots read the shipped models (:mod:`pitch.bots.winvalue`,
:mod:`pitch.fastcore.bidmodel`) and never import this package, so that a process that
plays, the server among them, loads no training code and no Ray. This package's own
import loads nothing.
"""
