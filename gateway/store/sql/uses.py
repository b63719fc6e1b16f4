"""The citation log (``roles.uses.CitationLog``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..records import Use
from .base import SqlBase, page

_USE_COLUMNS = "tenant, user_id, memory_id, conversation_id, surface, time"
_USE_KEYS = ("memory_id", "user_id", "conversation_id", "surface", "time")


class SqlCitationLog(SqlBase):
    async def add_uses(self, uses: Sequence[Use]) -> None:
        if not uses:
            return
        async with self._writer() as w:
            await w.executemany(
                f"INSERT INTO memory_uses ({_USE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                [(u.tenant, u.user_id, u.memory_id, u.conversation_id, u.surface, u.time) for u in uses],
            )

    async def move_uses(self, tenant: str, user_id: str, from_ids: Sequence[str], to_id: str) -> int:
        moved = 0
        async with self._writer() as w:
            for chunk in self.dialect.chunks(from_ids):
                among, ids = self.dialect.any_of("memory_id", chunk)
                moved += await w.execute(
                    f"UPDATE memory_uses SET memory_id = ? WHERE tenant = ? AND user_id = ? AND {among}",
                    [to_id, tenant, user_id, *ids],
                )
        return moved

    async def uses(
        self, memory_id: str, tenant: str, user_id: str | None, *, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        where, args = "memory_id = ? AND tenant = ?", [memory_id, tenant]
        if user_id is not None:
            where, args = where + " AND user_id = ?", [*args, user_id]
        total = await self._count(f"SELECT COUNT(*) FROM memory_uses WHERE {where}", args)
        rows = await self._query(
            f"SELECT {', '.join(_USE_KEYS)} FROM memory_uses WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, *page(limit, offset)],
        )
        return [dict(zip(_USE_KEYS, r, strict=True)) for r in rows], total

    async def count_uses(self, tenant: str, user_id: str) -> int:
        return await self._count("SELECT COUNT(*) FROM memory_uses WHERE tenant = ? AND user_id = ?", [tenant, user_id])

    async def recent_uses(self, tenant: str, user_id: str, conversation_id: str | None, limit: int) -> list[Use]:
        where, args = "tenant = ? AND user_id = ?", [tenant, user_id]
        if conversation_id is not None:
            where, args = where + " AND conversation_id = ?", [*args, conversation_id]
        rows = await self._query(
            f"SELECT {_USE_COLUMNS} FROM memory_uses WHERE {where} ORDER BY id DESC LIMIT ?",
            [*args, max(0, int(limit))],
        )
        return [Use(*r) for r in rows]

    async def use_counts(self, tenant: str, ids: Sequence[str], user_id: str | None = None) -> dict[str, int]:
        out = dict.fromkeys(ids, 0)
        who, who_args = (" AND user_id = ?", [user_id]) if user_id is not None else ("", [])
        for chunk in self.dialect.chunks(list(out)):  # one read for a page of memories
            among, args = self.dialect.any_of("memory_id", chunk)
            rows = await self._query(
                f"SELECT memory_id, COUNT(*) FROM memory_uses WHERE {among} AND tenant = ?{who} GROUP BY memory_id",
                [*args, tenant, *who_args],
            )
            out.update((str(mid), int(n)) for mid, n in rows)
        return out

    async def most_used(self, tenant: str, user_id: str, since: str, limit: int) -> list[tuple[str, int]]:
        rows = await self._query(
            "SELECT memory_id, COUNT(*) AS n FROM memory_uses WHERE tenant = ? AND user_id = ? AND time >= ? "
            "GROUP BY memory_id ORDER BY n DESC, memory_id LIMIT ?",
            [tenant, user_id, since, max(0, int(limit))],
        )
        return [(str(r[0]), int(r[1])) for r in rows]

    async def prune_uses(self, cutoff: str) -> int:
        async with self._writer() as w:
            return await w.execute("DELETE FROM memory_uses WHERE time < ?", (cutoff,))

    async def uses_after(self, after_id: int, limit: int) -> list[tuple[int, Use]]:
        rows = await self._query(
            f"SELECT id, {_USE_COLUMNS} FROM memory_uses WHERE id > ? ORDER BY id LIMIT ?",
            (int(after_id), max(1, int(limit))),
        )
        return [(int(r[0]), Use(*r[1:])) for r in rows]
