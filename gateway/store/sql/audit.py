"""The audit log (``roles.audit.AuditLog``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from ..records import AuditEntry
from .base import Row, SqlBase, page

_COLUMNS = "id, time, actor, action, tenant, user_id, memory_id, before, after"


def _encoded(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


class SqlAudit(SqlBase):
    def _entry(self, r: Row) -> AuditEntry:
        read = self.dialect.read_json
        return AuditEntry(r[1], r[2], r[3], r[4], r[5], r[6], read(r[7]), read(r[8]), id=int(r[0]))

    async def audit(self, entry: AuditEntry) -> None:
        await self.import_audit([entry])

    async def audit_entries(self, tenant: str | None, *, limit: int, offset: int) -> tuple[list[AuditEntry], int]:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        total = await self._count(f"SELECT COUNT(*) FROM audit_log {where}", args)
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM audit_log {where} ORDER BY id DESC LIMIT ? OFFSET ?", [*args, *page(limit, offset)]
        )
        return [self._entry(r) for r in rows], total

    async def audit_after(self, after_id: int, limit: int) -> list[AuditEntry]:
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM audit_log WHERE id > ? ORDER BY id LIMIT ?", (int(after_id), max(0, int(limit)))
        )
        return [self._entry(r) for r in rows]

    async def import_audit(self, entries: Sequence[AuditEntry]) -> None:
        if not entries:
            return
        json = self.dialect.json_mark
        async with self._writer() as w:
            await w.executemany(
                "INSERT INTO audit_log (time, actor, action, tenant, user_id, memory_id, before, after) "
                f"VALUES (?, ?, ?, ?, ?, ?, {json}, {json})",
                [
                    (e.time, e.actor, e.action, e.tenant, e.user_id, e.memory_id, _encoded(e.before), _encoded(e.after))
                    for e in entries
                ],
            )
