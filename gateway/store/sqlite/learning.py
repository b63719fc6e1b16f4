"""``SQLiteLearningStore``: durable learning state in SQLite (``store.LearningStore``): the job
queue, the learning log, prompt overrides, usage. Tables: ``schema.MIGRATIONS`` 7 to 9. The
statements are the shared ones (``gateway.store.sql.queue``, ``sql.learning``); this module
holds what only SQLite has: the probe of a full disk and the WAL checkpoint.
"""

from __future__ import annotations

import sqlite3

from gateway.errors import InsufficientStorage, StorageUnavailable

from ..errors import StoreBusy
from ..sql.base import SQLITE
from ..sql.learning import SqlLearningShared
from .connection import SerialConnection
from .faults import StoreHealth


class SQLiteLearningStore(SerialConnection, SqlLearningShared):
    """Its own connection to the memory database file (see ``connection.SerialConnection``):
    the workers, the learning filter and the admin API share it from concurrent coroutines."""

    name = "learning store"
    dialect = SQLITE

    def __init__(
        self,
        database_path: str,
        *,
        busy_timeout_ms: int = 10_000,
        max_page_count: int | None = None,
        health: StoreHealth | None = None,
    ) -> None:
        super().__init__(database_path, busy_timeout_ms=busy_timeout_ms, max_page_count=max_page_count, health=health)

    async def writable(self) -> bool:
        """False while the last write failed for lack of space or an I/O error; re-probed
        with a real write at most every ``storage.PROBE_INTERVAL_S`` seconds."""
        if self.health.probe_due():
            # only a write that needs new pages tells: small updates still fit on a full disk
            try:
                async with self._writer() as w:
                    await w.execute("INSERT INTO learning_probe (filler) VALUES (zeroblob(8192))")
                    await w.execute("DELETE FROM learning_probe")
            except (sqlite3.Error, StoreBusy, StorageUnavailable, InsufficientStorage) as exc:
                self.health.failed(exc.__cause__ or exc)  # SQLite's own words; and wait another interval
            else:
                self.health.recovered()
        return self.health.writable

    async def compact(self) -> None:
        """Copy the WAL into the database and truncate it, so wiped job payloads leave no
        copy behind in the -wal file (``secure_delete`` zeroes the pages)."""
        async with self._lock:
            async with self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
                await cursor.fetchall()
