"""Several ``pitch serve`` processes behind nginx on one PostgreSQL: ``pitch cluster``
(docs/deploy.md). It starts processes and programs; it imports nothing of the server."""
