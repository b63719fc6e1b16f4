"""``PostgresLearningStore``: the learning queue shared by every replica, the learning log,
learning token usage and prompt overrides. The statements are the shared ones
(``gateway.store.sql.queue``, ``sql.learning``): a claim passes over the jobs other replicas'
claims hold (``FOR UPDATE SKIP LOCKED``), and times are the database's (``clock_timestamp``).
This module holds the connection and whether the database takes writes.
"""

from __future__ import annotations

import time

import psycopg

from gateway.errors import GatewayError

from ..sql.learning import SqlLearningShared
from .connection import Database, OnDatabase

WRITABLE_TTL_S = 2.0


class PostgresLearningStore(OnDatabase, SqlLearningShared):
    """See ``store.LearningStore``. ``database`` is a URL (own pool) or a shared ``Database``."""

    def __init__(self, database: Database | str) -> None:
        super().__init__(database)
        self._writable = (True, 0.0)  # (answer, monotonic time it expires)

    async def writable(self) -> bool:
        """Whether the database takes writes (reachable, not a read-only standby); asked on
        every chat, so the answer is kept for ``WRITABLE_TTL_S``."""
        now = time.monotonic()
        if now < self._writable[1]:
            return self._writable[0]
        try:
            rows = await self._query("SELECT NOT pg_is_in_recovery()")
            ok = bool(rows and rows[0][0])
        except (psycopg.Error, GatewayError, OSError):
            ok = False
        self._writable = (ok, now + WRITABLE_TTL_S)
        return ok

    async def compact(self) -> None:
        """Nothing: autovacuum reclaims the row versions that held wiped payloads."""
