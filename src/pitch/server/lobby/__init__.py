"""Quick play: seating a stranger at a table that wants one."""
