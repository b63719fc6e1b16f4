"""The audit log (``roles.audit.AuditLog``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import orjson

from .base import Row, SqlBase, page

_KEYS = ("id", "time", "actor", "action", "tenant", "user_id", "memory_id", "before", "after")
_COLUMNS = ", ".join(_KEYS)


def _encoded(value: Any) -> str | None:
    return None if value is None else orjson.dumps(value).decode()


class SqlAudit(SqlBase):
    def _entry(self, row: Row) -> dict[str, Any]:
        entry: dict[str, Any] = dict(zip(_KEYS[:7], row[:7], strict=True))
        entry["before"] = self.dialect.read_json(row[7])
        entry["after"] = self.dialect.read_json(row[8])
        return entry

    async def audit(self, entry: dict[str, Any]) -> None:
        await self.import_audit([entry])

    async def audit_entries(self, tenant: str | None, *, limit: int, offset: int) -> tuple[list[dict[str, Any]], int]:
        where, args = ("WHERE tenant = ?", [tenant]) if tenant is not None else ("", [])
        total = await self._count(f"SELECT COUNT(*) FROM audit_log {where}", args)
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM audit_log {where} ORDER BY id DESC LIMIT ? OFFSET ?", [*args, *page(limit, offset)]
        )
        return [self._entry(r) for r in rows], total

    async def audit_after(self, after_id: int, limit: int) -> list[dict[str, Any]]:
        rows = await self._query(
            f"SELECT {_COLUMNS} FROM audit_log WHERE id > ? ORDER BY id LIMIT ?", (int(after_id), max(0, int(limit)))
        )
        return [self._entry(r) for r in rows]

    async def import_audit(self, entries: Sequence[dict[str, Any]]) -> None:
        if not entries:
            return
        json = self.dialect.json_mark
        async with self._writer() as w:
            await w.executemany(
                "INSERT INTO audit_log (time, actor, action, tenant, user_id, memory_id, before, after) "
                f"VALUES (?, ?, ?, ?, ?, ?, {json}, {json})",
                [
                    (
                        e["time"],
                        e["actor"],
                        e["action"],
                        e.get("tenant"),
                        e.get("user_id"),
                        e.get("memory_id"),
                        _encoded(e.get("before")),
                        _encoded(e.get("after")),
                    )
                    for e in entries
                ],
            )
