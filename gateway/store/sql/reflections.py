"""Reflection reports (``roles.reflections.Reflections``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..records import Reflection, ReflectionKind
from .base import Row, SqlBase, equal_to, page

_COLUMNS = "id, tenant, user_id, period_start, period_end, created_at, report"
_INSERT = f"INSERT INTO reflections ({_COLUMNS}) VALUES ({', '.join('?' * 7)})"


def _values(r: Reflection) -> tuple[Any, ...]:
    return (r.id, r.tenant, r.user_id, r.period_start, r.period_end, r.created_at, orjson.dumps(r.report).decode())


def _reflection(row: Row) -> Reflection:
    """A reflections row (``_COLUMNS``)."""
    return Reflection(
        id=str(row[0]),
        tenant=str(row[1]),
        user_id=str(row[2]),
        period_start=str(row[3]),
        period_end=str(row[4]),
        created_at=str(row[5]),
        report=dict(orjson.loads(row[6])),
    )


class SqlReflections(SqlBase):
    async def add_reflection(self, reflection: Reflection) -> None:
        async with self._writer() as w:
            await w.execute(_INSERT, _values(reflection))

    async def reflections(
        self, tenant: str | None, user_id: str | None, *, limit: int, offset: int, kind: ReflectionKind | None = None
    ) -> tuple[list[Reflection], int]:
        where, args = equal_to((("tenant", tenant), ("user_id", user_id)))
        if kind is not None:
            where += " AND user_id = ''" if kind == "tenant" else " AND user_id <> ''"
        total = await self._count(f"SELECT COUNT(*) FROM reflections WHERE {where}", args)
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM reflections WHERE {where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
            [*args, *page(limit, offset)],
        )
        return [_reflection(r) for r in rows], total

    async def delete_reflections(self, tenant: str, user_id: str) -> int:
        async with self._writer() as w:
            return await w.execute("DELETE FROM reflections WHERE tenant = ? AND user_id = ?", (tenant, user_id))

    async def prune_reflections(self, cutoff: str) -> int:
        async with self._writer() as w:
            return await w.execute("DELETE FROM reflections WHERE created_at < ?", (cutoff,))

    async def reflections_after(self, created_at: str, reflection_id: str, limit: int) -> list[Reflection]:
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM reflections WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?",
            [created_at, reflection_id, max(0, int(limit))],
        )
        return [_reflection(r) for r in rows]

    async def import_reflections(self, reflections: Sequence[Reflection]) -> None:
        if not reflections:
            return
        async with self._writer() as w:
            await w.executemany(_INSERT, [_values(r) for r in reflections])
