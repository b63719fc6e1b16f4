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

from ..store import ConsoleSession
from .connection import SerialConnection

SEED_KEY = "console_link_seed"
_COLUMNS = "key, kind, tenant, user_id, expires, link_nonce, link_expires"


def _session(row: Sequence[Any]) -> ConsoleSession:
    return ConsoleSession(
        key=str(row[0]),
        kind=str(row[1]),
        tenant=str(row[2]),
        user_id=str(row[3]),
        expires=float(row[4]),
        link_nonce=None if row[5] is None else str(row[5]),
        link_expires=None if row[6] is None else float(row[6]),
    )


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
                    f"INSERT OR REPLACE INTO console_sessions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (s.key, s.kind, s.tenant, s.user_id, s.expires, s.link_nonce, s.link_expires),
                )
            ]
        )

    async def session(self, key: str, now: float) -> ConsoleSession | None:
        rows = await self._read(f"SELECT {_COLUMNS} FROM console_sessions WHERE key = ? AND expires > ?", (key, now))
        return _session(rows[0]) if rows else None

    async def end_session(self, key: str) -> ConsoleSession | None:
        rows = await self._read(f"SELECT {_COLUMNS} FROM console_sessions WHERE key = ?", (key,))
        await self._write([("DELETE FROM console_sessions WHERE key = ?", (key,))])
        return _session(rows[0]) if rows else None

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
        await self._write([("INSERT OR IGNORE INTO meta (key, value) VALUES (?, ?)", (SEED_KEY, candidate))])
        rows = await self._read("SELECT value FROM meta WHERE key = ?", (SEED_KEY,))
        return str(rows[0][0])
