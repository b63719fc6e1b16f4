"""``SQLiteConsoleStore``: console sessions and revoked console links in the SQLite file
(``store.ConsoleStore``; tables: ``schema.MIGRATIONS`` 9). Sessions survive a restart.

Its own connection to the file (WAL allows it): every statement runs with its commit under
``_lock``, writes wait out ``database is locked`` and mark ``health`` on a full or failing
disk (``connection.SerialConnection``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import aiosqlite

from ..records import ConsoleSession
from ..rows import LINK_SEED_KEY, SESSION_COLUMNS, row_to_session
from .connection import SerialConnection


class SQLiteConsoleStore(SerialConnection):
    name = "console store"

    async def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """The statements in one transaction; answers each one's count of changed rows."""

        async def run(db: aiosqlite.Connection) -> list[int]:
            counts = []
            for sql, params in statements:
                async with db.execute(sql, params) as cursor:
                    counts.append(cursor.rowcount)
            return counts

        return await self._unit(run)

    async def add_session(self, session: ConsoleSession) -> None:
        s = session
        await self._write(
            [
                (
                    f"INSERT OR REPLACE INTO console_sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (s.key, s.kind, s.tenant, s.user_id, s.expires, s.link_nonce, s.link_expires),
                )
            ]
        )

    async def session(self, key: str, now: float) -> ConsoleSession | None:
        rows = await self._read(
            f"SELECT {SESSION_COLUMNS} FROM console_sessions WHERE key = ? AND expires > ?", (key, now)
        )
        return row_to_session(rows[0]) if rows else None

    async def end_session(self, key: str) -> ConsoleSession | None:
        rows = await self._read(f"SELECT {SESSION_COLUMNS} FROM console_sessions WHERE key = ?", (key,))
        await self._write([("DELETE FROM console_sessions WHERE key = ?", (key,))])
        return row_to_session(rows[0]) if rows else None

    async def revoke_link(self, nonce: str, expires: float) -> None:
        await self._write(
            [
                ("INSERT OR REPLACE INTO console_revoked_links (nonce, expires) VALUES (?, ?)", (nonce, expires)),
                ("DELETE FROM console_sessions WHERE link_nonce = ?", (nonce,)),
            ]
        )

    async def link_revoked(self, nonce: str) -> bool:
        return bool(await self._read("SELECT 1 FROM console_revoked_links WHERE nonce = ?", (nonce,)))

    async def purge_expired(self, now: float) -> int:
        counts = await self._write(
            [
                ("DELETE FROM console_sessions WHERE expires <= ?", (now,)),
                ("DELETE FROM console_revoked_links WHERE expires <= ?", (now,)),
            ]
        )
        return sum(counts)

    async def link_seed(self, candidate: str) -> str:
        await self._write([("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (LINK_SEED_KEY, candidate))])
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (LINK_SEED_KEY,))
        return str(rows[0][0])
