"""The analysis room (issue 47): the master bot's view of each decision of a finished
game, run as a job on a worker pool of its own and kept in the database per record.

Nothing is imported here: the record checkers' processes import ``upload`` alone, and
must not load the bots that ``room`` and ``worker`` do."""
