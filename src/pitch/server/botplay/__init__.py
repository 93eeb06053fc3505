"""Bot moves: the worker pool, its fair queue, and the scheduler of bot, stand-in and
timer moves and hints."""
