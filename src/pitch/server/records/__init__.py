"""Checking game records (in worker processes)."""
