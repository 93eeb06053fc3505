"""The one error a table job raises for a request it refuses."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service refuses: ``status`` is the HTTP status to answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
