"""The ``pitch`` command."""
