"""Reads of memory rows and the counts retention takes (``roles.memories``, ``roles.retention``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..records import Decay, Memory, PersonalStats, Visibility
from ..rows import MEMORY_COLUMNS, row_to_memory
from .base import SqlBase, page
from .visibility import visible

_PERSONAL = "tenant = ? AND scope = 'personal' AND user_id = ?"
_AUTO = "source = 'auto' AND NOT pinned"


class SqlMemoryReads(SqlBase):
    async def _select(self, where: str, params: Sequence[Any], tail: str = "") -> list[Memory]:
        rows = await self._query(f"SELECT {MEMORY_COLUMNS} FROM memories WHERE {where} {tail}", params)
        return [row_to_memory(r) for r in rows]

    async def fetch(self, ids: Sequence[str]) -> dict[str, Memory]:
        out: dict[str, Memory] = {}
        for chunk in self.dialect.chunks(ids):
            among, args = self.dialect.any_of("id", chunk)
            out.update((m.id, m) for m in await self._select(among, args))
        return out

    async def fetch_one(self, memory_id: str) -> Memory | None:
        return (await self.fetch([memory_id])).get(memory_id)

    async def list_visible(self, where: Visibility, *, limit: int, offset: int) -> tuple[list[Memory], int]:
        clause, args = visible(where)
        total = await self._count(f"SELECT COUNT(*) FROM memories WHERE {clause}", args)
        seq = self.dialect.seq
        rows = await self._select(
            clause, [*args, *page(limit, offset)], f"ORDER BY created_at DESC, {seq} DESC LIMIT ? OFFSET ?"
        )
        return rows, total

    async def in_slot(self, tenant: str, user_id: str, slot: str) -> list[Memory]:
        return await self._select(
            f"{_PERSONAL} AND enabled AND slot = ?",
            [tenant, user_id, slot],
            f"ORDER BY created_at DESC, {self.dialect.seq} DESC",
        )

    async def pinned(self, tenant: str, user_id: str | None) -> list[Memory]:
        clause, args = visible(Visibility(tenant, user_id))
        return await self._select(f"{clause} AND pinned", args, f"ORDER BY created_at, {self.dialect.seq}")

    async def count_visible(self, tenant: str, user_id: str | None) -> int:
        clause, args = visible(Visibility(tenant, user_id, include_disabled=True))
        return await self._count(f"SELECT COUNT(*) FROM memories WHERE {clause}", args)

    async def texts_to_embed(self, *, everything: bool) -> list[tuple[str, str, str]]:
        where = "" if everything else "WHERE embedding IS NULL"
        rows = await self._query(f"SELECT id, title, content FROM memories {where} ORDER BY {self.dialect.seq}")
        return [(r[0], r[1], r[2]) for r in rows]

    # -- counts and what retention takes ----------------------------------------------------
    async def count_personal(
        self, tenant: str, user_id: str, *, source: str | None = None, kind: str | None = None
    ) -> int:
        extra, args = "", []
        for column, value in (("source", source), ("kind", kind)):
            if value is not None:
                extra += f" AND {column} = ?"
                args.append(value)
        return await self._count(f"SELECT COUNT(*) FROM memories WHERE {_PERSONAL}{extra}", [tenant, user_id, *args])

    async def count_by_kind(self, tenant: str, user_id: str) -> dict[str, int]:
        rows = await self._query(
            f"SELECT kind, COUNT(*) FROM memories WHERE {_PERSONAL} GROUP BY kind ORDER BY kind", (tenant, user_id)
        )
        return {str(r[0]): int(r[1]) for r in rows}

    async def count_pinned(self, tenant: str, user_id: str) -> int:
        return await self._count(f"SELECT COUNT(*) FROM memories WHERE {_PERSONAL} AND pinned", [tenant, user_id])

    async def personal_stats(self, tenant: str, user_id: str) -> PersonalStats:
        rows = await self._query(
            "SELECT category, COUNT(*), COUNT(*) FILTER (WHERE enabled), "
            f"MAX(created_at) FILTER (WHERE source = 'auto') FROM memories WHERE {_PERSONAL} "
            "GROUP BY category ORDER BY category",
            (tenant, user_id),
        )
        learned = [r[3] for r in rows if r[3]]
        return PersonalStats(
            total=sum(int(r[1]) for r in rows),
            enabled=sum(int(r[2]) for r in rows),
            by_category={r[0]: int(r[1]) for r in rows},
            by_kind=await self.count_by_kind(tenant, user_id),
            last_learned_at=max(learned) if learned else None,
        )

    async def lowest_value(
        self, tenant: str, user_id: str, n: int, protect: Sequence[str], decay: Decay, *, kind: str | None = None
    ) -> list[Memory]:
        if n <= 0:
            return []
        where, args = f"{_PERSONAL} AND {_AUTO}", [tenant, user_id]
        if protect:
            among, ids = self.dialect.any_of("id", protect)
            where, args = f"{where} AND NOT ({among})", [*args, *ids]
        if kind is not None:
            where, args = f"{where} AND kind = ?", [*args, kind]
        d = self.dialect
        return await self._select(
            where,
            [*args, *decay.strength_args(), int(n)],
            f"ORDER BY enabled ASC, {d.strength} ASC, access_count ASC, created_at ASC, {d.seq} ASC LIMIT ?",
        )

    async def expired(self, cutoff: str, decay: Decay) -> list[Memory]:
        return await self._select(
            f"{_AUTO} AND ((access_count = 0 AND updated_at < ?) OR {self.dialect.strength} < ?)",
            [cutoff, *decay.strength_args(), decay.floor],
            f"ORDER BY {self.dialect.seq}",
        )

    async def count_weak(self, tenant: str, user_id: str, decay: Decay) -> int:
        return await self._count(
            f"SELECT COUNT(*) FROM memories WHERE {_PERSONAL} AND {_AUTO} AND {self.dialect.strength} < ?",
            [tenant, user_id, *decay.strength_args(), decay.floor],
        )
