"""Stored analyses (``pitch.store.models.AnalysisModel``), one row per key
(``upload.cache_key``). Every function here runs in the database's threads."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy.exc import IntegrityError

from pitch.store import Database
from pitch.store.models import AnalysisModel


class AnalysisStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    def get(self, key: str) -> bytes | None:
        with self.db.sessions() as s:
            row = s.get(AnalysisModel, key)
            return None if row is None else row.result.encode()

    def put(self, key: str, table_id: str | None, game: int, result: bytes) -> None:
        """Keep ``result``; a row another process stored first is the same analysis."""
        try:
            with self.db.sessions() as s, s.begin():
                if s.get(AnalysisModel, key) is not None:
                    return
                s.add(
                    AnalysisModel(
                        key=key,
                        table_id=table_id,
                        game=game,
                        created_at=datetime.now(UTC),
                        result=result.decode(),
                    )
                )
        except IntegrityError:
            pass
