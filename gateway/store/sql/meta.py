"""The store's metadata (``roles.lifecycle.Metadata``)."""

from __future__ import annotations

from .base import SqlBase


class SqlMeta(SqlBase):
    async def get_meta(self, key: str) -> str | None:
        rows = await self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return None if not rows else str(rows[0][0])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._writer() as w:
            await w.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
