"""Console sessions and revoked console links (``roles.console.ConsoleStore``)."""

from __future__ import annotations

from ..records import ConsoleSession
from ..rows import LINK_SEED_KEY, SESSION_COLUMNS, row_to_session
from .base import SqlBase, Writer


class SqlConsole(SqlBase):
    async def add_session(self, session: ConsoleSession) -> None:
        s = session
        async with self._writer() as w:
            await w.execute(
                f"INSERT INTO console_sessions ({SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (s.key, s.kind, s.tenant, s.user_id, s.expires, s.link_nonce, s.link_expires),
            )

    async def session(self, key: str, now: float) -> ConsoleSession | None:
        rows = await self._query(
            f"SELECT {SESSION_COLUMNS} FROM console_sessions WHERE key = ? AND expires > ?", (key, now)
        )
        return row_to_session(rows[0]) if rows else None

    async def end_session(self, key: str) -> ConsoleSession | None:
        async with self._writer() as w:
            rows = await w.fetch(f"DELETE FROM console_sessions WHERE key = ? RETURNING {SESSION_COLUMNS}", (key,))
        return row_to_session(rows[0]) if rows else None

    async def revoke_link(self, nonce: str, expires: float) -> None:
        async def statements(w: Writer) -> None:
            await w.execute(
                "INSERT INTO console_revoked_links (nonce, expires) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING",
                (nonce, expires),
            )
            await w.execute("DELETE FROM console_sessions WHERE link_nonce = ?", (nonce,))

        await self._atomic(statements)

    async def link_revoked(self, nonce: str) -> bool:
        return bool(await self._query("SELECT 1 FROM console_revoked_links WHERE nonce = ?", (nonce,)))

    async def purge_expired(self, now: float) -> int:
        async def statements(w: Writer) -> int:
            sessions = await w.execute("DELETE FROM console_sessions WHERE expires <= ?", (now,))
            links = await w.execute("DELETE FROM console_revoked_links WHERE expires <= ?", (now,))
            return max(0, sessions) + max(0, links)

        return await self._atomic(statements)

    async def link_seed(self, candidate: str) -> str:
        async def statements(w: Writer) -> str:
            await w.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING", (LINK_SEED_KEY, candidate)
            )
            rows = await w.fetch("SELECT value FROM meta WHERE key = ?", (LINK_SEED_KEY,))
            return str(rows[0][0])

        return await self._atomic(statements)
