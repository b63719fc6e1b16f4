"""``PostgresConsoleStore``: console sessions and revoked console links shared by every replica
(``store.ConsoleStore``; tables: ``schema.MIGRATIONS`` 2).

A session started on one replica is read by the others with one primary-key lookup per
request; nothing is cached, so a logout committed on one replica is seen by the next request
on any other. Expiry times are unix seconds from the replica that wrote them (sessions last
hours: clocks kept by NTP agree well enough).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..records import ConsoleSession
from ..rows import LINK_SEED_KEY, SESSION_COLUMNS, row_to_session
from .connection import Database


class PostgresConsoleStore:
    """See ``store.ConsoleStore``. ``database`` is a URL (own pool) or a shared ``Database``."""

    def __init__(self, database: Database | str) -> None:
        self.db = database if isinstance(database, Database) else Database(database)

    async def open(self) -> None:
        await self.db.open()

    async def close(self) -> None:
        await self.db.close()

    async def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        async with self.db.connection() as conn:
            cur = await conn.execute(sql, params)
            return await cur.fetchall()

    async def add_session(self, session: ConsoleSession) -> None:
        s = session
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                f"INSERT INTO console_sessions ({SESSION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (s.key, s.kind, s.tenant, s.user_id, s.expires, s.link_nonce, s.link_expires),
            )

    async def session(self, key: str, now: float) -> ConsoleSession | None:
        rows = await self._read(
            f"SELECT {SESSION_COLUMNS} FROM console_sessions WHERE key = %s AND expires > %s", (key, now)
        )
        return row_to_session(rows[0]) if rows else None

    async def end_session(self, key: str) -> ConsoleSession | None:
        async with self.db.transaction() as tx:
            cur = await tx.conn.execute(
                f"DELETE FROM console_sessions WHERE key = %s RETURNING {SESSION_COLUMNS}", (key,)
            )
            row = await cur.fetchone()
        return None if row is None else row_to_session(row)

    async def revoke_link(self, nonce: str, expires: float) -> None:
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                "INSERT INTO console_revoked_links (nonce, expires) VALUES (%s, %s) ON CONFLICT (nonce) DO NOTHING",
                (nonce, expires),
            )
            await tx.conn.execute("DELETE FROM console_sessions WHERE link_nonce = %s", (nonce,))

    async def link_revoked(self, nonce: str) -> bool:
        return bool(await self._read("SELECT 1 FROM console_revoked_links WHERE nonce = %s", (nonce,)))

    async def purge_expired(self, now: float) -> int:
        async with self.db.transaction() as tx:
            sessions = await tx.conn.execute("DELETE FROM console_sessions WHERE expires <= %s", (now,))
            links = await tx.conn.execute("DELETE FROM console_revoked_links WHERE expires <= %s", (now,))
            return max(0, sessions.rowcount) + max(0, links.rowcount)

    async def link_seed(self, candidate: str) -> str:
        async with self.db.transaction() as tx:
            await tx.conn.execute(
                "INSERT INTO meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO NOTHING", (LINK_SEED_KEY, candidate)
            )
            cur = await tx.conn.execute("SELECT value FROM meta WHERE key = %s", (LINK_SEED_KEY,))
            row = await cur.fetchone()
        assert row is not None
        return str(row[0])
