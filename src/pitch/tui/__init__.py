"""The terminal game: ``pitch play`` and ``pitch replay`` (``docs/terminal.md``)."""
